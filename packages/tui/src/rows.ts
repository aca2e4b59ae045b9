import stringWidth from 'string-width';

/**
 * Terminal rows. The live region (everything below the finished transcript) is laid out here
 * in rows of known display width, so its height in terminal rows is known before Ink draws it:
 * a row is never wider than the width it was wrapped to, wide characters (CJK, emoji) count
 * two columns, and nothing is left for the terminal to wrap.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Printable ASCII only: one column per character. */
const ASCII = /^[\x20-\x7e]*$/;

/** Display width of a text in terminal columns (East Asian wide and emoji count 2). */
export function displayWidth(text: string): number {
  // Most text is plain ASCII, whose width is its length; string-width is for the rest.
  return ASCII.test(text) ? text.length : stringWidth(text);
}

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/**
 * Word-wrap one line (no `\n`) into rows of at most `width` columns. Breaks at spaces (the
 * spaces at a break are dropped); a word wider than a row is split between characters. An
 * empty line is one empty row. Pure.
 */
export function wrapRows(line: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  if (line === '') return [''];
  if (line.length <= w && displayWidth(line) <= w) return [line];
  const rows: string[] = [];
  let cur = '';
  let curW = 0;
  const push = () => {
    rows.push(cur.trimEnd());
    cur = '';
    curW = 0;
  };
  for (const token of line.split(/( +)/)) {
    if (token === '') continue;
    const tw = displayWidth(token);
    if (token.startsWith(' ')) {
      // Spaces: kept inside a row, dropped at a break.
      if (curW + tw <= w) {
        cur += token;
        curW += tw;
      } else if (curW > 0) push();
      continue;
    }
    if (curW + tw <= w) {
      cur += token;
      curW += tw;
      continue;
    }
    if (tw <= w && curW > 0) {
      push();
      cur = token;
      curW = tw;
      continue;
    }
    // A word wider than what is left: split it between characters.
    for (const g of graphemes(token)) {
      const gw = Math.min(w, displayWidth(g));
      if (curW + gw > w) push();
      cur += g;
      curW += gw;
    }
  }
  if (cur !== '' || rows.length === 0) rows.push(cur.trimEnd());
  return rows;
}

/**
 * Hard-wrap one line into rows of at most `width` columns between characters (no word
 * breaks), with the row and column of code-point index `cursor` (the composer). Pure.
 */
export function hardWrap(line: string, width: number, cursor = -1): { readonly rows: readonly string[]; readonly cursorRow: number; readonly cursorCol: number } {
  const w = Math.max(1, Math.floor(width));
  const rows: string[] = [];
  let cur = '';
  let curW = 0;
  let at = 0; // code points consumed
  let cursorRow = -1;
  let cursorCol = -1;
  for (const g of graphemes(line)) {
    const gw = Math.min(w, displayWidth(g));
    if (curW + gw > w) {
      rows.push(cur);
      cur = '';
      curW = 0;
    }
    if (cursor >= at && cursor < at + Array.from(g).length && cursorRow < 0) {
      cursorRow = rows.length;
      cursorCol = Array.from(cur).length;
    }
    cur += g;
    curW += gw;
    at += Array.from(g).length;
  }
  // A cursor at the end sits after the last character (a new row when the last one is full).
  if (cursor >= at && cursorRow < 0) {
    if (curW + 1 > w) {
      rows.push(cur);
      cur = '';
    }
    cursorRow = rows.length;
    cursorCol = Array.from(cur).length;
  }
  rows.push(cur);
  return { rows, cursorRow, cursorCol };
}

/** Cut a text to at most `width` columns, ending with `…` when it was longer. Pure. */
export function fitRow(text: string, width: number): string {
  const w = Math.max(1, Math.floor(width));
  if (text.length <= w && displayWidth(text) <= w) return text;
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const gw = displayWidth(g);
    if (used + gw > w - 1) break;
    out += g;
    used += gw;
  }
  return `${out}\u2026`;
}
