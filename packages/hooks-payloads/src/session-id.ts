const SESSION_ID = /^sess_[0-9a-f]{8}$/;

/**
 * A session id, `sess_` followed by 8 lowercase hex characters, from 4 random bytes the
 * caller supplies (this package has no randomness of its own).
 */
export function sessionIdFromBytes(bytes: Uint8Array): string {
  if (bytes.length < 4) throw new RangeError('a session id needs 4 random bytes');
  let hex = '';
  for (let i = 0; i < 4; i++) hex += bytes[i]!.toString(16).padStart(2, '0');
  return `sess_${hex}`;
}

/** True for a well-formed session id (`sess_` + 8 lowercase hex, 13 characters). */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}
