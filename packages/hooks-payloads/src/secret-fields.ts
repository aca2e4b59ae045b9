import { PEM_BEGIN, PEM_END, normalizeSecretName, secretNameRule, tokenShapeRule } from './secret-patterns.js';
import { coreTrim, splitFields } from './text-fields.js';

/** How a field of a text is judged: kept, a secret, or the continuation of a secret block (PEM). */
/** `continued`: inside a PEM block after its first field, shown as part of its one `[secret]`. */
export type FieldSecrecy = 'kept' | 'secret' | 'continued';

const NAME_RUN = /^[A-Za-z0-9_.-]+$/;
const AUTH_SCHEMES = new Set(['basic', 'digest', 'negotiate', 'ntlm']);

function isNameChar(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '.' || c === '-';
}

/**
 * The first `NAME=value` / `NAME:value` inside `core` whose NAME is credential-like (quotes
 * and spaces between the name and the separator are skipped: `"password": "x"`). Each
 * separator looks back only as far as the previous one, so this is linear in `core`.
 */
function secretAssignment(core: string): { name: string; value: string } | null {
  for (let i = 0; i < core.length; i++) {
    const c = core[i]!;
    if (c !== '=' && c !== ':') continue;
    let j = i - 1;
    while (j >= 0 && (core[j] === '"' || core[j] === "'" || core[j] === ' ')) j--;
    const end = j + 1;
    while (j >= 0 && isNameChar(core[j]!)) j--;
    const name = core.slice(j + 1, end);
    if (secretNameRule(name) !== null) return { name, value: coreTrim(core.slice(i + 1).replace(/^[\s=:]+/, '')) };
  }
  return null;
}

/**
 * Does a word that follows a bare credential word (`password hunter2`) look like a value
 * rather than prose (`password reset`)? Digits, symbols, inner capitals or great length.
 */
export function looksLikeSecretValue(word: string): boolean {
  return /[0-9]/.test(word) || /[^A-Za-z']/.test(word) || /[a-z][A-Z]/.test(word) || word.length >= 24;
}

function nextCore(fields: readonly string[], i: number): string | null {
  for (let k = i + 1; k < fields.length; k++) {
    const c = coreTrim(fields[k]!);
    if (c !== '') return c;
  }
  return null;
}

interface Judged {
  readonly secret: boolean;
  /** How many following fields are its value. */
  readonly pending: number;
  /** The following `;`-joined fields are cookie pairs. */
  readonly cookie: boolean;
  /** The next field may be an auth scheme word (`Authorization:` then `Bearer`, then the credential). */
  readonly scheme?: boolean;
}

const KEPT: Judged = { secret: false, pending: 0, cookie: false };

function judgeField(fields: readonly string[], i: number, field: string, core: string): Judged {
  if (/\s/u.test(core)) {
    // A quoted run: its words are judged on their own, and any secret hides the whole run.
    const inner = secretFields(splitFields(core.replace(/["']/g, ' ')));
    return inner.some((s) => s !== 'kept') ? { secret: true, pending: 0, cookie: false } : KEPT;
  }
  if (tokenShapeRule(core) !== null) return { secret: true, pending: 0, cookie: false };
  const assignment = secretAssignment(core);
  if (assignment) {
    const name = normalizeSecretName(assignment.name);
    const isAuthorization = /(?:^|_)authorization$/.test(name);
    const isCookie = /cookie$/.test(name);
    if (assignment.value === '') return { secret: true, pending: isCookie ? 0 : 1, cookie: isCookie, scheme: isAuthorization };
    // `Authorization=Bearer` <credential>: a scheme word, not yet the credential.
    if (isAuthorization && !/[\s:0-9]/u.test(assignment.value)) return { secret: true, pending: 1, cookie: false };
    return { secret: true, pending: 0, cookie: isCookie && /[;,]$/.test(field) };
  }
  if (!NAME_RUN.test(core)) return KEPT;
  const lower = core.toLowerCase();
  const next = nextCore(fields, i);
  // `Basic dXNlcjpwYXNz`: the capitalised scheme word is not secret; its credential is.
  if (AUTH_SCHEMES.has(lower) && core[0] !== lower[0]) return { secret: false, pending: 1, cookie: false };
  if (secretNameRule(core) === null) return KEPT;
  const name = normalizeSecretName(core);
  const assigned = next === '=' || next === ':';
  const capitalBearer = core === 'Bearer' || core === 'BEARER';
  const authorization = /(?:^|_)authorization$/.test(name);
  const schemeNext = next !== null && (AUTH_SCHEMES.has(next.toLowerCase()) || next.toLowerCase() === 'bearer');
  if (assigned || capitalBearer || name.includes('_') || (next !== null && (looksLikeSecretValue(next) || (authorization && schemeNext)))) {
    const isCookie = /cookie$/.test(name);
    return { secret: true, pending: isCookie ? 0 : 1, cookie: isCookie, scheme: authorization };
  }
  return KEPT;
}

/**
 * Judge every field of a text (see `splitFields`) for secrets, in one left-to-right pass:
 * - a field with a token of a known shape (`TOKEN_SHAPE_RULES`);
 * - `NAME=value`, `NAME: value`, `NAME = value` for a credential-like NAME
 *   (`SECRET_NAME_RULES`), in any case and spelling (`npmAuthToken`, `X-Api-Key`), quoted or
 *   in JSON; a compound name written apart from its value (`GITHUB_TOKEN abc`) too;
 * - a plain credential word followed by something that looks like a value (`password
 *   hunter2`, `bearer abc123`) — but not by an ordinary word (`password reset page`);
 * - `Authorization: <scheme> <credential>`, a capitalised scheme word's credential
 *   (`Basic dXNlcjpwYXNz` keeps `Basic`), `Cookie:` / `Set-Cookie:` with every `;`-joined
 *   pair after it, and PEM blocks from `-----BEGIN` to the end of the `-----END …-----` line.
 */
export function secretFields(fields: readonly string[]): FieldSecrecy[] {
  const out: FieldSecrecy[] = new Array<FieldSecrecy>(fields.length).fill('kept');
  let pending = 0;
  let cookie = false;
  let scheme = false;
  let pem: 'none' | 'body' | 'end' = 'none';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const core = coreTrim(field);
    if (pem !== 'none') {
      out[i] = 'continued';
      if (core.includes(PEM_END)) pem = 'end';
      if (pem === 'end' && core.endsWith('-----') && core !== PEM_END) pem = 'none';
      continue;
    }
    if (core.includes(PEM_BEGIN)) {
      out[i] = 'secret';
      pem = 'body';
      pending = 0;
      cookie = false;
      scheme = false;
      continue;
    }
    if (core === '' || core === '=' || core === ':') continue;
    const forced = pending > 0 || cookie;
    // After `Authorization:`, a word without digits is the scheme and the credential follows.
    if (pending > 0 && scheme && !/[0-9]/.test(core)) pending++;
    scheme = false;
    if (pending > 0) pending--;
    else if (cookie) cookie = /[;,]$/.test(field);
    const judged = judgeField(fields, i, field, core);
    if (forced || judged.secret) out[i] = 'secret';
    // A redacted field can itself start a secret (`credentials CLIENT_SECRET abc9`).
    pending = Math.max(pending, judged.pending);
    cookie ||= judged.cookie;
    scheme = judged.scheme ?? false;
  }
  return out;
}
