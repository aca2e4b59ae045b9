import { createHash } from 'node:crypto';

/** SHA-256 of bytes, lowercase hex (D11): the one hash of approvals, script pins and hook-set digests. */
export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
