import { redactSecrets } from '@codewhale/hooks-payloads';

/** What replaces a secret in stored or served text. */
export const REDACTED = '[redacted]';

// Key-shaped tokens (`sk-…`), bearer credentials and our own runtime tokens, even partly masked.
const KEY_SHAPED = /\b(?:sk|pk|rk)-[A-Za-z0-9*_.-]{4,}/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=*-]{4,}/gi;
const RUNTIME_TOKEN = /\bcwrt_[0-9a-f]{8,}/g;
// The password of a URL's userinfo (`https://user:password@host`): the user name stays.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@]{1,256}):[^\s/@]{1,256}@/gi;
// A quick filter before the per-line field scan: only lines that could hold a credential are rescanned.
const MAYBE_SECRET =
  /[=:]|pass|secret|token|key|auth|bearer|cookie|session|cred|-----BEGIN|\b(?:gh[pousr]_|github_pat_|gl[a-z]{1,5}-|xox|xapp-|npm_|pypi-|AKIA|ASIA|A[BCGINP][A-Z]A|AIza|ya29\.|sk_|rk_|pk_|whsec_|SG\.|hf_|dckr_|do[opr]_v1|shp|eyJ)/i;

/** Values of the environment that are secrets by name (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`). */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v && v.length >= 6 && /(?:API_KEY|TOKEN|SECRET|PASSWORD)/i.test(k)) out.push(v);
  }
  return out;
}

/**
 * Remove every known secret value and every credential-shaped field from `text`: the exact
 * values first (the server's token, its environment's secrets), then, line by line, the shared
 * credential tables of `@codewhale/hooks-payloads` (credential names with their values such as
 * `--password=…` or `Authorization: Bearer …`, and token shapes: `ghp_…`, `xoxb-…`, `AKIA…`,
 * `sk-…`, JWTs, PEM blocks …), then URL passwords. A line with a secret has its whitespace
 * runs folded to one space; a line without one is kept byte for byte.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 6 && out.includes(s)) out = out.split(s).join(REDACTED);
  out = out.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  if (MAYBE_SECRET.test(out))
    out = out
      .split('\n')
      .map((line) => (MAYBE_SECRET.test(line) ? redactSecrets(line) : line))
      .join('\n');
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

/**
 * Characters that change how text is shown without showing themselves: the bidirectional
 * marks, embeddings, overrides and isolates (which can reorder what a person reads — a command
 * to approve among them) and the zero-width characters (which hide differences).
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` with every invisible formatting character shown escaped, as `<U+202E>`. */
export function displaySafe(text: string): string {
  return text.replace(INVISIBLE, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** Display-safe every string inside a JSON value. */
export function displaySafeJson(value: unknown): unknown {
  if (typeof value === 'string') return displaySafe(value);
  if (Array.isArray(value)) return value.map(displaySafeJson);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, displaySafeJson(v)]));
  return value;
}

/** At most `maxChars` code points, with a marker when cut. */
export function boundText(text: string, maxChars: number): string {
  const points = Array.from(text);
  return points.length <= maxChars ? text : `${points.slice(0, maxChars).join('')}\n...[truncated ${points.length - maxChars} chars]`;
}
