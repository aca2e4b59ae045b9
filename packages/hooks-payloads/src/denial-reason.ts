import { LIMITS, TEXT_TRUNCATION_MARKER } from './limits.js';
import { sanitizeLine } from './sanitize.js';
import { secretFields } from './secret-fields.js';
import { coreTrim, splitFields } from './text-fields.js';

/** Shown when redaction leaves nothing of a structured denial reason. */
export const DEFAULT_DENIAL_TEXT = 'hook denied the action';

type Pending = 'none' | 'command' | 'path';

const PATH_WORDS = new Set(['path', 'file', 'directory', 'cwd', 'workspace']);
const COMMAND_WORDS = new Set(['command', 'cmd', 'argv', 'executable']);

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function isPathLike(core: string): boolean {
  if (core.startsWith('/') || core.startsWith('~/') || core.startsWith('./') || core.startsWith('../')) return true;
  if (core.includes('/') || core.includes('\\')) return true;
  return core.length >= 2 && core.charCodeAt(0) < 0x80 && core[1] === ':';
}

/**
 * The bounded, redacted form of a structured denial reason, used for `tool_call_before`
 * denials and `message_submit` blocks. Path-, argument-, command- and secret-like tokens are
 * replaced by `[path]`, `[argument]`, `[command]`, `[secret]`. Secrets are what
 * `secretFields` finds from the two tables (`SECRET_NAME_RULES`, `TOKEN_SHAPE_RULES`):
 * `key=value`, `key: value`, quoted and JSON forms of credential-like names, well-known token
 * shapes anywhere in a word, `Authorization: <scheme> <credential>`, `Basic <credential>`,
 * cookie headers and PEM blocks; ordinary prose (`password reset page`) is kept.
 * Over-redaction is intended. Linear in the text; the result is a single line of at most 240
 * code points plus a marker, and never empty.
 */
export function sanitizeDenialReason(reason: string): string {
  // Redact the whole text first and bound the result: bounding first could cut a secret in
  // two and leave a part no rule recognises.
  let line = sanitizeLine(reason).text;
  // A reason already cut upstream (at 2,000 chars) may end in part of a secret that no rule
  // recognises any more: drop that last, partial word.
  const cut = line.endsWith(TEXT_TRUNCATION_MARKER);
  if (cut) line = line.slice(0, -TEXT_TRUNCATION_MARKER.length).replace(/\S*$/u, '');
  const fields = splitFields(line);
  const secrecy = secretFields(fields);
  const out: string[] = [];
  let pending: Pending = 'none';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const core = coreTrim(field);
    const lower = asciiLower(core);
    if (core === '=' || core === ':') continue;
    if (secrecy[i] === 'continued') continue;
    if (pending !== 'none') {
      out.push(pending === 'command' ? '[command]' : '[path]');
      pending = 'none';
      continue;
    }
    if (secrecy[i] === 'secret') {
      out.push('[secret]');
      continue;
    }
    const sep = core.search(/[:=]/);
    if (sep >= 0) {
      const key = asciiLower(coreTrim(core.slice(0, sep))).replace(/[-.]/g, '_');
      const value = coreTrim(core.slice(sep + 1));
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
    } else if (PATH_WORDS.has(label)) {
      out.push('[path]');
      pending = 'path';
    } else if (isPathLike(core)) {
      out.push('[path]');
    } else if (core.startsWith('-')) {
      out.push('[argument]');
    } else {
      out.push(field);
    }
  }
  if (cut) out.push(TEXT_TRUNCATION_MARKER);
  const text = sanitizeLine(out.join(' '), LIMITS.denialReasonMaxChars).text;
  return text.trim() === '' ? DEFAULT_DENIAL_TEXT : text;
}
