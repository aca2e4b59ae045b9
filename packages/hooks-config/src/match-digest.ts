import { fail, ok, type Result } from './result.js';

/** The shortest digest prefix `approve` accepts (D11). */
export const MIN_DIGEST_PREFIX_CHARS = 12;

export type DigestMatchErrorCode = 'invalid_digest' | 'digest_too_short' | 'digest_mismatch' | 'digest_ambiguous';

export interface DigestMatchError {
  readonly code: DigestMatchErrorCode;
  readonly message: string;
}

/**
 * Resolve what the user typed to one of `candidates` (lowercase SHA-256 hex): the full
 * digest, or a prefix of at least 12 hex characters that only one candidate starts with.
 * Case-insensitive; surrounding blanks and a `sha256:` prefix are ignored. A digest that
 * matches none is refused, so an approval can only ever name the file as it is now.
 */
export function matchDigest(input: string, candidates: readonly string[]): Result<string, DigestMatchError> {
  const typed = input
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (!/^[0-9a-f]+$/.test(typed) || typed.length > 64) {
    return fail({ code: 'invalid_digest', message: 'a digest is 64 hexadecimal characters (or a unique prefix of at least 12)' });
  }
  if (typed.length < MIN_DIGEST_PREFIX_CHARS) {
    return fail({ code: 'digest_too_short', message: `a digest prefix needs at least ${MIN_DIGEST_PREFIX_CHARS} hexadecimal characters (got ${typed.length})` });
  }
  const hits = [...new Set(candidates.map((c) => c.toLowerCase()))].filter((c) => c.startsWith(typed));
  if (hits.length === 0) {
    return fail({ code: 'digest_mismatch', message: 'that digest does not match the project hooks file as it is now; run `hooks review` and approve the digest it shows' });
  }
  if (hits.length > 1) return fail({ code: 'digest_ambiguous', message: 'that prefix matches more than one digest; type more of it' });
  return ok(hits[0]!);
}
