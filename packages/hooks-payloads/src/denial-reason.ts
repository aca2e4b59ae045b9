import { LIMITS } from './limits.js';
import { sanitizeLine } from './sanitize.js';

/** Shown when redaction leaves nothing of a structured denial reason. */
export const DEFAULT_DENIAL_TEXT = 'hook denied the action';

type Pending = 'none' | 'authorization' | 'secret' | 'command' | 'path';

const TRIM = new Set([...`'"\`()[]{},;`]);
const SECRET_KEYS = new Set(['token', 'secret', 'password', 'passwd', 'api_key', 'apikey', 'authorization', 'bearer']);
const PATH_WORDS = new Set(['path', 'file', 'directory', 'cwd', 'workspace']);
const COMMAND_WORDS = new Set(['command', 'cmd', 'argv', 'executable']);
const SECRET_WORDS = new Set(['bearer', 'token', 'secret', 'password', 'passwd']);
// HTTP auth schemes: the scheme word itself is not secret, but the field after it is the
// credential (`Basic dXNlcjpwYXNz`), with or without an `Authorization:` header before it.
const AUTH_SCHEMES = new Set(['basic', 'digest', 'negotiate', 'ntlm']);

function coreTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && TRIM.has(s[a]!)) a++;
  while (b > a && TRIM.has(s[b - 1]!)) b--;
  return s.slice(a, b);
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Whitespace-separated fields; a quoted run (`'…'` or `"…"`) stays inside one field. */
function splitFields(line: string): string[] {
  const fields: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of line) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
    } else if (/\s/u.test(ch)) {
      if (cur) fields.push(cur);
      cur = '';
    } else {
      if (ch === '"' || ch === "'") quote = ch;
      cur += ch;
    }
  }
  if (cur) fields.push(cur);
  return fields;
}

function isPathLike(core: string): boolean {
  if (core.startsWith('/') || core.startsWith('~/') || core.startsWith('./') || core.startsWith('../')) return true;
  if (core.includes('/') || core.includes('\\')) return true;
  return core.length >= 2 && core.charCodeAt(0) < 0x80 && core[1] === ':';
}

function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key) || key.endsWith('_api_key') || key.endsWith('_token') || key.endsWith('_secret');
}

/**
 * The bounded, redacted form of a structured denial reason, used for `tool_call_before`
 * denials and `message_submit` blocks. Path-, argument-, command- and secret-like tokens are
 * replaced by `[path]`, `[argument]`, `[command]`, `[secret]`, including `key=value`, quoted,
 * `Authorization: <scheme> <credential>` and bare `Basic <credential>` (Digest, Negotiate, NTLM)
 * forms, and secret-like keys written apart from their value (`GITHUB_TOKEN = abc`).
 * Over-redaction is intended. The result is a single line of at most 240 code points plus a
 * marker; it is never empty.
 */
export function sanitizeDenialReason(reason: string): string {
  const line = sanitizeLine(reason, LIMITS.denialReasonMaxChars).text;
  const out: string[] = [];
  let pending: Pending = 'none';
  for (const field of splitFields(line)) {
    const core = coreTrim(field);
    const lower = asciiLower(core);
    if (core === '=' || core === ':') continue;
    if (pending !== 'none') {
      if (pending === 'authorization') {
        out.push('[secret]');
        pending = 'secret';
      } else {
        out.push(pending === 'secret' ? '[secret]' : pending === 'command' ? '[command]' : '[path]');
        pending = 'none';
      }
      continue;
    }
    const sep = core.search(/[:=]/);
    if (sep >= 0) {
      const key = asciiLower(coreTrim(core.slice(0, sep))).replace(/[-.]/g, '_');
      const value = coreTrim(core.slice(sep + 1));
      if (isSecretKey(key)) {
        out.push('[secret]');
        if (key === 'authorization' && value === '') pending = 'authorization';
        else if (key === 'authorization' && !/[\s:]/u.test(value)) pending = 'secret';
        else if (value === '') pending = 'secret';
        continue;
      }
      if (PATH_WORDS.has(key)) {
        out.push('[path]');
        if (value === '') pending = 'path';
        continue;
      }
      if (COMMAND_WORDS.has(key)) {
        out.push('[command]');
        if (value === '') pending = 'command';
        continue;
      }
    }
    const label = lower.replace(/[:=]+$/, '');
    if (COMMAND_WORDS.has(label)) {
      out.push('[command]');
      pending = 'command';
    } else if (label === 'authorization') {
      out.push('[secret]');
      pending = 'authorization';
    } else if (SECRET_WORDS.has(label) || isSecretKey(label.replace(/[-.]/g, '_'))) {
      // A secret-like key written apart from its value (`GITHUB_TOKEN = abc`, `api-key: abc`).
      out.push('[secret]');
      pending = 'secret';
    } else if (PATH_WORDS.has(label)) {
      out.push('[path]');
      pending = 'path';
    } else if (AUTH_SCHEMES.has(label)) {
      out.push(field);
      pending = 'secret';
    } else if (lower.startsWith('sk-') || lower.startsWith('ghp_') || lower.startsWith('github_pat_')) {
      out.push('[secret]');
    } else if (isPathLike(core)) {
      out.push('[path]');
    } else if (core.startsWith('-')) {
      out.push('[argument]');
    } else {
      out.push(field);
    }
  }
  const text = sanitizeLine(out.join(' '), LIMITS.denialReasonMaxChars).text;
  return text.trim() === '' ? DEFAULT_DENIAL_TEXT : text;
}
