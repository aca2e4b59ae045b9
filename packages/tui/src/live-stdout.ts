import { EventEmitter } from 'node:events';

/** Erase `n` lines upwards from the cursor's line, leaving the cursor at the start of the top one. */
export function eraseLines(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `\x1b[2K${i < n - 1 ? '\x1b[1A' : ''}`;
  return n > 0 ? `${out}\x1b[G` : '';
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

/** The rows Ink is told the terminal has: never reached, so Ink never takes its clear-and-replay path. */
export const INK_ROWS = 100_000;

/**
 * The stream Ink writes to: the real terminal, with two differences.
 *
 * - Ink is told the terminal is {@link INK_ROWS} tall. Ink clears the screen and scrollback and
 *   replays the transcript once its live output is as tall as the terminal; the live region is
 *   laid out to stay at least two rows shorter (`layoutLive`), and this makes sure that path is
 *   never taken even so. The real height is `viewRows`.
 * - A resize that narrows the terminal re-wraps the live region already on screen, so it may
 *   take more rows than Ink erases. Before Ink redraws, the extra rows are erased here, from the
 *   widths of the last frame (`setFrame`), so the old frame leaves nothing behind and nothing
 *   above it (the transcript) is touched.
 */
export class LiveStdout extends EventEmitter {
  readonly isTTY = true;
  private frame: readonly number[] = [];
  private lastColumns: number;
  private readonly onResize = () => this.resized();

  constructor(private readonly real: NodeJS.WriteStream) {
    super();
    this.lastColumns = real.columns || 80;
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

  /** The display widths of the live frame being drawn (one per row). */
  setFrame(widths: readonly number[]): void {
    this.frame = widths;
  }

  write(chunk: string | Uint8Array, encodingOrCb?: BufferEncoding | ((e?: Error | null) => void), cb?: (e?: Error | null) => void): boolean {
    return typeof encodingOrCb === 'function' ? this.real.write(chunk, encodingOrCb) : this.real.write(chunk, encodingOrCb as BufferEncoding, cb);
  }

  private resized(): void {
    const columns = this.columns;
    if (columns < this.lastColumns) {
      // Ink erases (rows + 1) lines from the cursor (the line below the frame); the frame now takes R rows.
      const n = this.frame.length;
      const r = reflowedRows(this.frame, columns);
      if (r > n) this.real.write(eraseLines(r - n + 1));
    }
    this.lastColumns = columns;
    this.emit('resize');
  }

  dispose(): void {
    this.real.off('resize', this.onResize);
  }
}
