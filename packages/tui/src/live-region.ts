import type { Row } from './live-layout.js';
import { wrapRows } from './rows.js';
import type { TranscriptItem } from './tui-state.js';

/**
 * The terminal side of the screen, without Ink: the bytes that print finished transcript items
 * once into the terminal's scrollback and keep the live region below them up to date.
 *
 * The live region is a list of rows, each a string already styled (SGR) and never as wide as
 * the terminal, so the terminal never wraps one. After every draw the cursor sits at the start
 * of the line just below the last row. A new frame rewrites only the rows that changed:
 * the cursor moves up to the first changed row, each changed row is written over the old one
 * and the rest of its line erased (`ESC[K`), unchanged rows are skipped with a cursor move,
 * and rows the new frame no longer has are erased line by line (`ESC[2K`). Nothing here ever
 * clears the screen: not `ESC[2J` or `ESC[3J`, and not `ESC[J` either, which some terminals
 * (tmux) treat as a clear when the cursor is at the top of the screen and copy the screen into
 * the scrollback first, live rows included.
 */

const CSI = '\x1b[';
/** Erase from the cursor to the end of its line. */
export const ERASE_LINE_END = `${CSI}K`;
const ERASE_LINE = `${CSI}2K`;
export const RESET = `${CSI}0m`;
const up = (n: number): string => (n > 0 ? `${CSI}${n}A` : '');
const down = (n: number): string => (n > 0 ? `${CSI}${n}B` : '');

/** Erase `n` lines from the cursor's line down; the cursor ends where it started, at column 0. */
function eraseLines(n: number): string {
  if (n <= 0) return '';
  let out = ERASE_LINE;
  for (let i = 1; i < n; i++) out += `${CSI}1B${ERASE_LINE}`;
  return `${out}\r${up(n - 1)}`;
}

/**
 * Bytes that turn frame `prev` into frame `next` on screen, when `prev` is drawn as written
 * with the cursor on the line below it; the cursor ends on the line below `next`. Only the
 * rows that differ are written. Pure.
 */
export function frameDiff(prev: readonly string[], next: readonly string[]): string {
  let first = 0;
  while (first < prev.length && first < next.length && prev[first] === next[first]) first++;
  if (first === prev.length && first === next.length) return '';
  let out = `\r${up(prev.length - first)}`;
  let skipped = 0;
  for (let i = first; i < next.length; i++) {
    if (i < prev.length && prev[i] === next[i]) {
      skipped++;
      continue;
    }
    out += `${down(skipped)}${next[i]}${ERASE_LINE_END}\n`;
    skipped = 0;
  }
  out += down(skipped);
  if (next.length < prev.length) out += eraseLines(prev.length - next.length);
  return out;
}

/**
 * Bytes that erase the live region on screen (`onScreen` terminal rows tall, the cursor on the
 * line below it), print `above` (finished transcript text, ending with a newline) in its place,
 * and draw `next` below. Pure.
 */
export function redraw(onScreen: number, above: string, next: readonly string[]): string {
  let out = `\r${up(onScreen)}${eraseLines(onScreen)}${above}`;
  for (const r of next) out += `${r}${ERASE_LINE_END}\n`;
  return out;
}

/**
 * Rows a frame of rows with these display widths takes once a terminal that reflows (tmux,
 * most emulators) has re-wrapped it to `columns`. Pure.
 */
export function reflowedRows(widths: readonly number[], columns: number): number {
  const c = Math.max(1, columns);
  let n = 0;
  for (const w of widths) n += Math.max(1, Math.ceil(w / c));
  return n;
}

const FG: Readonly<Record<string, number>> = { black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90, grey: 90 };

interface Style {
  readonly color?: string | undefined;
  readonly dim?: boolean | undefined;
  readonly bold?: boolean | undefined;
  readonly inverse?: boolean | undefined;
}

/** `text` in `style` (SGR), reset after; colours only when `color`. Pure. */
export function styled(text: string, style: Style, color: boolean): string {
  const codes: number[] = [];
  if (style.bold) codes.push(1);
  if (style.dim) codes.push(2);
  if (style.inverse) codes.push(7);
  const fg = color && style.color ? FG[style.color] : undefined;
  if (fg !== undefined) codes.push(fg);
  return codes.length && text !== '' ? `${CSI}${codes.join(';')}m${text}${RESET}` : text;
}

/** A live row as written: its prefix (the composer prompt), its text, the composer cursor drawn inverse. Pure. */
export function rowText(r: Row, color: boolean): string {
  const base: Style = { color: r.color, dim: r.dim, bold: r.bold };
  const prefix = r.prefix ? styled(r.prefix, { ...base, color: r.prefixColor ?? r.color }, color) : '';
  if (r.cursor === undefined || r.cursor < 0) return prefix + styled(r.text, base, color);
  const chars = Array.from(r.text);
  const at = chars[r.cursor] ?? ' ';
  return prefix + styled(chars.slice(0, r.cursor).join(''), base, color) + styled(at, { ...base, inverse: true }, color) + styled(chars.slice(r.cursor + 1).join(''), base, color);
}

const TONE: Readonly<Record<NonNullable<TranscriptItem['tone']>, string>> = { dim: 'gray', ok: 'green', bad: 'red', warn: 'yellow' };

/**
 * A finished transcript item as printed: every line whole, word-wrapped to `columns`, each row
 * styled on its own (a row that scrolls away keeps its colour) and ended with a newline. Pure.
 */
export function itemText(item: TranscriptItem, columns: number, color: boolean): string {
  const style: Style = { color: item.tone ? TONE[item.tone] : item.kind === 'user' ? 'cyan' : undefined, dim: item.kind === 'reasoning' };
  let out = '';
  for (const line of item.lines) for (const r of wrapRows(line, columns)) out += `${styled(r, style, color)}\n`;
  return out;
}
