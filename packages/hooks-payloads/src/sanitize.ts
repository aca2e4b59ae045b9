import { LIMITS, PREVIEW_ELLIPSIS, TEXT_TRUNCATION_MARKER } from './limits.js';
import type { Bounded } from './bounded.js';
import { redactSecrets } from './redact-secrets.js';

/**
 * True for characters a sanitized text never keeps: C0/C1 controls (category Cc) other
 * than `\n` and `\t`, and the bidirectional embedding/override/isolate controls that can
 * make a terminal show text in a different order than it is stored (Trojan Source).
 */
function isStripped(cp: number): boolean {
  if (cp === 0x0a || cp === 0x09) return false;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp >= 0x202a && cp <= 0x202e) return true;
  if (cp >= 0x2066 && cp <= 0x2069) return true;
  return false;
}

function sanitize(s: string, maxChars: number, singleLine: boolean): Bounded {
  let out = '';
  let kept = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (isStripped(cp)) continue;
    if (kept === maxChars) return { text: out + TEXT_TRUNCATION_MARKER, truncated: true };
    if (singleLine && (cp === 0x0a || cp === 0x09 || cp === 0x2028 || cp === 0x2029)) {
      out += ' ';
    } else {
      out += ch;
    }
    kept++;
  }
  return { text: out, truncated: false };
}

/**
 * Multi-line sanitizer for `reason`, `additionalContext` and error text (D17): control
 * characters are removed (`\n` and `\t` kept), and after `maxChars` code points the text is
 * cut and `…[truncated]` appended. A text of exactly `maxChars` gets no marker.
 */
export function sanitizeText(s: string, maxChars: number = Number.POSITIVE_INFINITY): Bounded {
  return sanitize(s, maxChars, false);
}

/** Single-line sanitizer: as {@link sanitizeText}, and `\n`, `\t`, U+2028, U+2029 become spaces. */
export function sanitizeLine(s: string, maxChars: number = Number.POSITIVE_INFINITY): Bounded {
  return sanitize(s, maxChars, true);
}

/** The label shown for a hook: its sanitized, trimmed name (≤ 64 chars + marker), or `(unnamed)`. */
export function sanitizeLabel(name: string | null | undefined): string {
  if (name == null) return '(unnamed)';
  const text = sanitizeLine(name, LIMITS.labelMaxChars).text.trim();
  return text === '' ? '(unnamed)' : text;
}

/**
 * The single-line command preview shown by `hooks list`: secret-like fields replaced with
 * `[secret]` (a token on the command line, `API_KEY=…`, an `Authorization` header), sanitized,
 * and if longer than 60 code points, its first 59 followed by `…` (exactly 60). Secrets are
 * redacted before the cut, so a cut never leaves the start of one.
 */
export function previewCommand(command: string, maxChars: number = LIMITS.commandPreviewMaxChars): string {
  const line = sanitizeLine(redactSecrets(command)).text;
  const chars = Array.from(line);
  if (chars.length <= maxChars) return line;
  return chars.slice(0, Math.max(0, maxChars - 1)).join('') + PREVIEW_ELLIPSIS;
}
