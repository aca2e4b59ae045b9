import { secretFields } from './secret-fields.js';
import { splitFields } from './text-fields.js';

/**
 * Replace every secret-like field of a text with `[secret]` — the same tables the denial-reason
 * sanitizer uses (credential names with their values, known token shapes, `Authorization` and
 * cookie headers, PEM blocks) — and keep everything else. Unlike `sanitizeDenialReason` it
 * leaves paths, commands and arguments alone, so a tool-input preview stays readable. A quoted
 * run is one field, so a JSON string holding a secret is replaced whole (over-redaction is
 * intended). A text with no secret comes back unchanged. Linear in the text.
 */
export function redactSecrets(text: string): string {
  const fields = splitFields(text);
  const secrecy = secretFields(fields);
  if (!secrecy.some((s) => s !== 'kept')) return text;
  const out: string[] = [];
  fields.forEach((f, i) => {
    if (secrecy[i] === 'secret') out.push('[secret]');
    else if (secrecy[i] === 'kept') out.push(f);
  });
  return out.join(' ');
}
