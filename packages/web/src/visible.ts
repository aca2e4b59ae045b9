/**
 * Text from the model, a tool or a hook shown as what it is: characters that change how text
 * looks without being seen (bidirectional controls, zero-width and other invisible formatting
 * characters, control characters, tag characters) are shown as a visible `<U+XXXX>` mark
 * instead of acting on the text around them. Newlines and tabs stay.
 */
export type Segment = { readonly text: string; readonly hidden: false } | { readonly text: string; readonly hidden: true; readonly code: number };

/** True for a character that must be shown escaped. */
export function isInvisible(code: number): boolean {
  if (code === 0x0a || code === 0x09) return false;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0xad ||
    code === 0x034f ||
    code === 0x061c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x17b4 ||
    code === 0x17b5 ||
    (code >= 0x180b && code <= 0x180f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0x3164 ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff ||
    code === 0xffa0 ||
    (code >= 0xfff0 && code <= 0xfffb) ||
    (code >= 0x1bca0 && code <= 0x1bca3) ||
    (code >= 0x1d173 && code <= 0x1d17a) ||
    (code >= 0xe0000 && code <= 0xe0fff) ||
    // Lone surrogates (broken UTF-16).
    (code >= 0xd800 && code <= 0xdfff)
  );
}

/** How a hidden character is shown: `<U+202E>`. */
export const mark = (code: number): string => `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;

/** `text` split into plain runs and hidden characters (each its own segment). */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let run = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (isInvisible(code)) {
      if (run) out.push({ text: run, hidden: false });
      run = '';
      out.push({ text: mark(code), hidden: true, code });
    } else run += ch;
  }
  if (run) out.push({ text: run, hidden: false });
  return out;
}

/** `text` with every hidden character replaced by its mark. */
export function visibleText(text: string): string {
  return segments(text)
    .map((s) => s.text)
    .join('');
}
