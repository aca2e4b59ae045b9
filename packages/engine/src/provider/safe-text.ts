/**
 * Text that goes into provider error messages: secrets removed, control characters and
 * runs of whitespace collapsed, bounded in code points.
 */

/** What replaces a secret in a message. */
export const REDACTED = '[redacted]';

// Key-shaped tokens servers echo back (`sk-proj-ab***wxyz`), even partly masked.
const KEY_SHAPED = /\b(?:sk|pk|rk)-[A-Za-z0-9*_.-]{4,}/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=*-]{4,}/gi;

/**
 * Remove every occurrence of each non-empty secret (and key-shaped tokens, and `Bearer …`)
 * from `text`.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== null && secret !== undefined && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(KEY_SHAPED, REDACTED).replace(BEARER, `$1 ${REDACTED}`);
}

/**
 * One line of at most `maxChars` code points: control characters become spaces, whitespace
 * runs collapse, the ends are trimmed, and a cut text ends in `…`.
 */
export function boundLine(text: string, maxChars: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const points = Array.from(flat);
  if (points.length <= maxChars) return flat;
  return `${points.slice(0, Math.max(0, maxChars - 1)).join('')}…`;
}
