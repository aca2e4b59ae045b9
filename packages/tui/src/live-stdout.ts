import { EventEmitter } from 'node:events';
import { reflowedRows } from './live-region.js';
import { displayWidth } from './rows.js';

export { reflowedRows };

/** Erase `n` lines upwards from the cursor's line, leaving the cursor at the start of the top one (as Ink does). */
export function eraseLines(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `\x1b[2K${i < n - 1 ? '\x1b[1A' : ''}`;
  return n > 0 ? `${out}\x1b[G` : '';
}

/** Ink's erase of its previous frame at the start of a write: `eraseLines(k)`, k ≥ 1. */
const LEADING_ERASE = /^(?:\x1b\[2K\x1b\[1A)*\x1b\[2K\x1b\[G/;
const ERASE_LINE = '\x1b[2K';
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/**
 * The display widths of the rows of a frame as written (`text` ends with a newline: the cursor
 * sits on the line below the last row, where Ink leaves it). Pure.
 */
export function writtenRows(text: string): number[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => displayWidth(l.replace(ESCAPES, '')));
}

/**
 * One write of Ink's, the erase at its start widened for a terminal `columns` wide: the frame
 * on screen (`onScreen`, as written) may take more rows there than it had lines, because the
 * terminal re-wrapped it when it narrowed, and Ink erases only as many lines as it wrote. Also
 * returns what the frame on screen is after this write (`null`: unchanged). Pure.
 */
export function widenErase(chunk: string, onScreen: string, columns: number): { readonly out: string; readonly onScreen: string | null } {
  const erase = LEADING_ERASE.exec(chunk);
  let out = chunk;
  if (erase) {
    const widths = writtenRows(onScreen);
    const extra = reflowedRows(widths, columns) - widths.length;
    if (extra > 0) out = eraseLines(extra + 1) + chunk;
  }
  // The frame is what follows Ink's last erase in the write; a write without one that holds
  // text is a new frame (or the transcript, followed at once by the frame); one with neither
  // (mode switches, cursor visibility) leaves the frame as it was.
  const at = chunk.lastIndexOf(ERASE_LINE);
  const rest = at < 0 ? chunk : chunk.slice(at + ERASE_LINE.length).replace(/^\x1b\[G/, '');
  return { out, onScreen: at < 0 && rest.replace(ESCAPES, '') === '' ? null : rest };
}

/** The rows Ink is told the terminal has: never reached, so Ink never takes its clear-and-replay path. */
export const INK_ROWS = 100_000;

/**
 * The stream Ink writes to: the real terminal, with three differences.
 *
 * - Ink is told the terminal is `INK_ROWS` tall. Ink clears the screen and scrollback and
 *   replays the transcript once its live output is as tall as the terminal; the live region is
 *   laid out to stay at least two rows shorter (`layoutLive`), and this makes sure that path is
 *   never taken even so. The real height is `viewRows`.
 * - A terminal that narrows re-wraps the live region already on screen, so it takes more rows
 *   than Ink wrote and erases. Every erase Ink writes is widened here, from the frame actually
 *   on screen (as written, not as laid out) and the terminal's width when the erase is written,
 *   so the old frame leaves nothing behind and nothing above it (the transcript) is touched.
 * - Writes are collected and sent once the current turn of the event loop has handled its
 *   input, a resize among it. A terminal narrows before the process hears of it (SIGWINCH); a
 *   frame drawn in between would still be erased as if at the old width. Holding the write
 *   until the signal has been handled closes that gap, except for a signal that arrives while
 *   the frame is being written.
 */
export class LiveStdout extends EventEmitter {
  readonly isTTY = true;
  private onScreen = '';
  private pending: string[] = [];
  private flushing: NodeJS.Immediate | null = null;
  private readonly onResize = () => this.emit('resize');

  constructor(private readonly real: NodeJS.WriteStream) {
    super();
    real.on('resize', this.onResize);
  }

  get columns(): number {
    return this.real.columns || 80;
  }

  get rows(): number {
    return INK_ROWS;
  }

  /** The terminal's real height. */
  get viewRows(): number {
    return this.real.rows || 24;
  }

  write(chunk: string | Uint8Array, encodingOrCb?: BufferEncoding | ((e?: Error | null) => void), cb?: (e?: Error | null) => void): boolean {
    this.pending.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    this.flushing ??= setImmediate(() => this.flush());
    const done = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    if (done) queueMicrotask(() => done(null));
    return true;
  }

  /** Send what Ink has written so far, each erase widened for the terminal's width now. */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    if (this.pending.length === 0) return;
    const columns = this.columns;
    let out = '';
    for (const chunk of this.pending.splice(0)) {
      const w = widenErase(chunk, this.onScreen, columns);
      out += w.out;
      if (w.onScreen !== null) this.onScreen = w.onScreen;
    }
    this.real.write(out);
  }

  dispose(): void {
    this.flush();
    this.real.off('resize', this.onResize);
  }
}
