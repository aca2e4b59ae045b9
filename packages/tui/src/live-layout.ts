import { displayWidth, fitRow, hardWrap, wrapRows } from './rows.js';

/**
 * The live region, laid out in terminal rows. Everything finished is printed once into the
 * terminal's own scrollback; what is still changing (the streaming paragraph, queued messages,
 * a modal, the composer, the toast and the status line) is laid out here, one entry per
 * terminal row, each no wider than `columns - 1`, and never as many rows as the terminal has:
 * Ink clears the whole screen and scrollback once its live output reaches the terminal's
 * height, so this bound is what keeps that from ever happening.
 */
export interface Row {
  readonly text: string;
  readonly color?: string;
  readonly dim?: boolean;
  readonly bold?: boolean;
  /** Code-point index of the composer cursor in `text` (drawn inverse), or absent. */
  readonly cursor?: number;
  /** A prefix drawn in `prefixColor` before `text` (the composer prompt). */
  readonly prefix?: string;
  readonly prefixColor?: string;
}

export interface LiveInput {
  readonly columns: number;
  readonly rows: number;
  /** Streaming reasoning not yet printed (the paragraph in progress). */
  readonly reasoning: string;
  /** Streaming answer text not yet printed (the paragraph in progress). */
  readonly text: string;
  readonly queued: readonly string[];
  /** Modal rows, unwrapped (each is wrapped here); the last one is its key hint and always kept. */
  readonly modal: readonly Row[] | null;
  /** The composer (absent while an approval is open). */
  readonly composer: { readonly lines: readonly string[]; readonly line: number; readonly column: number; readonly prompt: string } | null;
  readonly menu: readonly Row[];
  readonly toast: Row | null;
  readonly status: string;
}

/** Rows the live region may use: at least two fewer than the terminal has. */
export function liveHeight(terminalRows: number): number {
  return Math.max(1, Math.floor(terminalRows) - 2);
}

/** Columns a live row may use: one fewer than the terminal has, so no row ever reaches the last column. */
export function liveWidth(columns: number): number {
  return Math.max(8, Math.floor(columns) - 1);
}

const MAX_COMPOSER_ROWS = 6;
const MAX_MENU_ROWS = 6;
const MAX_QUEUED_ROWS = 4;
const MAX_REASONING_ROWS = 3;

function wrapText(text: string, width: number, style: Omit<Row, 'text'>): Row[] {
  const out: Row[] = [];
  for (const line of text.split('\n')) for (const r of wrapRows(line, width)) out.push({ ...style, text: r });
  return out;
}

/** Keep the last `n` rows; when rows were dropped the first kept row says how many. */
function tail(rows: readonly Row[], n: number, what: string, width: number): Row[] {
  if (n <= 0) return [];
  if (rows.length <= n) return [...rows];
  if (n === 1) return [rows[rows.length - 1]!];
  const hidden = rows.length - n + 1;
  return [{ text: fitRow(`\u2026 ${hidden} earlier row${hidden === 1 ? '' : 's'} ${what}`, width), color: 'gray' }, ...rows.slice(rows.length - n + 1)];
}

/** Keep the first `n - 1` rows and the last one (a modal's key hint). */
function ends(rows: readonly Row[], n: number): Row[] {
  if (n <= 0) return [];
  if (rows.length <= n) return [...rows];
  if (n === 1) return [rows[rows.length - 1]!];
  return [...rows.slice(0, n - 1), rows[rows.length - 1]!];
}

/**
 * Lay out the live region: every row fits `liveWidth(columns)` and the total fits
 * `liveHeight(rows)`. When space is short, the parts give way in this order: toast, menu,
 * queued messages, the modal's middle, the composer (down to its cursor row), and the
 * streaming text gets whatever is left (its tail). Pure.
 */
export function layoutLive(i: LiveInput): Row[] {
  const width = liveWidth(i.columns);
  const height = liveHeight(i.rows);

  const status: Row = { text: fitRow(i.status, width), color: 'gray' };
  let toast: Row[] = [i.toast ? { ...i.toast, text: fitRow(i.toast.text, width) } : { text: ' ' }];
  let menu: Row[] = i.menu.slice(0, MAX_MENU_ROWS).map((r) => ({ ...r, text: fitRow(r.text, width) }));
  const queuedAll = i.queued.map((q, n): Row => ({ text: fitRow(`queued ${n + 1}: ${q}`, width), color: 'gray' }));
  let queued: Row[] =
    queuedAll.length > MAX_QUEUED_ROWS
      ? [...queuedAll.slice(0, MAX_QUEUED_ROWS - 1), { text: fitRow(`\u2026 ${queuedAll.length - MAX_QUEUED_ROWS + 1} more queued (/queue)`, width), color: 'gray' }]
      : queuedAll;
  let modal: Row[] = [];
  if (i.modal) for (const r of i.modal) for (const t of r.text.split('\n')) for (const w of wrapRows(t, width - 2)) modal.push({ ...r, text: w, prefix: '\u2502 ', prefixColor: r.color ?? 'yellow' });

  // The composer: hard-wrapped (the cursor maps to one row and column), a window around the cursor.
  let composer: Row[] = [];
  let cursorRow = 0;
  if (i.composer) {
    const c = i.composer;
    const pw = displayWidth(c.prompt);
    c.lines.forEach((line, n) => {
      const wrapped = hardWrap(line, width - pw, n === c.line ? c.column : -1);
      wrapped.rows.forEach((r, k) => {
        if (n === c.line && k === wrapped.cursorRow) cursorRow = composer.length;
        composer.push({ text: r, prefix: n === 0 && k === 0 ? c.prompt : ' '.repeat(pw), prefixColor: 'cyan', ...(n === c.line && k === wrapped.cursorRow ? { cursor: wrapped.cursorCol } : {}) });
      });
    });
  }
  const composerWindow = (n: number): Row[] => {
    if (composer.length <= n) return composer;
    const start = Math.max(0, Math.min(cursorRow - n + 1, composer.length - n));
    return composer.slice(start, start + n);
  };
  composer = composerWindow(MAX_COMPOSER_ROWS);

  const fixed = () => 1 + toast.length + menu.length + queued.length + modal.length + composer.length;
  // Give way, in order, until the fixed parts fit (the status row always stays, and one composer row whenever the terminal has room for two).
  if (fixed() > height) toast = [];
  if (fixed() > height) menu = menu.slice(0, Math.max(0, menu.length - (fixed() - height)));
  if (fixed() > height) queued = queued.slice(0, Math.max(0, queued.length - (fixed() - height)));
  if (fixed() > height) modal = ends(modal, Math.max(Math.min(modal.length, 2), modal.length - (fixed() - height)));
  if (fixed() > height) composer = composerWindow(Math.max(1, composer.length - (fixed() - height)));
  if (fixed() > height) modal = ends(modal, Math.max(0, modal.length - (fixed() - height)));
  if (fixed() > height) composer = []; // a terminal one or two rows tall: the status row alone

  let room = Math.max(0, height - fixed());
  const reasoningRows = i.reasoning ? wrapText(i.reasoning, width, { dim: true }) : [];
  const textRows = i.text ? wrapText(i.text, width, {}) : [];
  const reasoningShown = tail(reasoningRows, Math.min(reasoningRows.length, MAX_REASONING_ROWS, textRows.length ? Math.floor(room / 3) : room), 'of reasoning (printed in full when it ends)', width);
  room -= reasoningShown.length;
  const textShown = tail(textRows, room, 'of this paragraph (printed in full when it ends)', width);
  return [...reasoningShown, ...textShown, ...queued, ...modal, ...composer, ...menu, ...toast, status];
}
