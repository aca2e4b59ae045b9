import { ApiError } from './api-error.js';
import { PAGE_DEFAULT } from './schemas.js';

/**
 * List cursors are opaque to clients: the key of the last row of a page, base64url-encoded.
 * Anything that does not decode to such a key is a 400, never a silently empty page.
 */
export function encodeCursor(key: number | null): string | null {
  return key === null ? null : Buffer.from(`k${key}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^k(\d{1,15})$/.exec(text);
  if (!m || Buffer.from(text).toString('base64url') !== cursor) {
    throw new ApiError('invalid_request', 'the cursor is not one this server gave out', { issues: [{ path: 'cursor', code: 'invalid_cursor', message: 'pass next_cursor of the previous page' }] });
  }
  return Number(m[1]);
}

export const pageLimit = (limit: string | undefined): number => (limit === undefined ? PAGE_DEFAULT : Number(limit));
