/** What replaces a secret in stored or served text. */
export const REDACTED = '[redacted]';

// Key-shaped tokens (`sk-…`), bearer credentials and our own runtime tokens, even partly masked.
const KEY_SHAPED = /\b(?:sk|pk|rk)-[A-Za-z0-9*_.-]{4,}/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=*-]{4,}/gi;
const RUNTIME_TOKEN = /\bcwrt_[0-9a-f]{8,}/g;

/** Values of the environment that are secrets by name (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`). */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v && v.length >= 6 && /(?:API_KEY|TOKEN|SECRET|PASSWORD)/i.test(k)) out.push(v);
  }
  return out;
}

/** Remove every known secret value and every key-shaped token from `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 6 && out.includes(s)) out = out.split(s).join(REDACTED);
  return out.replace(KEY_SHAPED, REDACTED).replace(BEARER, `$1 ${REDACTED}`).replace(RUNTIME_TOKEN, REDACTED);
}

/** Redact every string inside a JSON value (objects and arrays walked, keys kept). */
export function redactJson(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactJson(v, secrets)]));
  }
  return value;
}

/** At most `maxChars` code points, with a marker when cut. */
export function boundText(text: string, maxChars: number): string {
  const points = Array.from(text);
  return points.length <= maxChars ? text : `${points.slice(0, maxChars).join('')}\n...[truncated ${points.length - maxChars} chars]`;
}
