/**
 * A small terminal emulator for tests of what the screen writes: printable text (wide
 * characters take two cells), `\r`, `\n` (as a terminal with ONLCR: carriage return and line
 * feed; at the bottom line the screen scrolls and its top line goes into the scrollback),
 * cursor up and down (`ESC[nA`, `ESC[nB`), erase to end of line (`ESC[K`), erase line
 * (`ESC[2K`); SGR and private modes are ignored. Everything else fails loudly: an erase of the
 * screen (`ESC[J`, `ESC[2J`, `ESC[3J`) and a row written past the last column (the terminal
 * would wrap it, and the row count would be wrong).
 */
import { displayWidth } from '../src/rows.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export class Vt {
  readonly scrollback: string[] = [];
  private lines: string[][];
  row = 0;
  col = 0;
  /** Printable cells written so far. */
  printed = 0;

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    this.lines = Array.from({ length: rows }, () => this.blank());
  }

  private blank(): string[] {
    return Array.from({ length: this.columns }, () => ' ');
  }

  write(data: string): void {
    const re = /\x1b\[([?0-9;]*)([A-Za-z])|\r|\n|[^\x1b\r\n]+/gy;
    let m: RegExpExecArray | null;
    let at = 0;
    while (at < data.length) {
      re.lastIndex = at;
      m = re.exec(data);
      if (!m) throw new Error(`unknown sequence at ${JSON.stringify(data.slice(at, at + 12))}`);
      at = re.lastIndex;
      const s = m[0];
      if (s === '\r') this.col = 0;
      else if (s === '\n') this.lineFeed();
      else if (s.startsWith('\x1b[')) this.csi(m[1] ?? '', m[2]!);
      else this.text(s);
    }
  }

  private lineFeed(): void {
    this.col = 0;
    if (this.row < this.rows - 1) {
      this.row++;
      return;
    }
    this.scrollback.push(this.lineText(this.lines[0]!));
    this.lines.shift();
    this.lines.push(this.blank());
  }

  private csi(params: string, final: string): void {
    if (params.startsWith('?')) return; // private modes (cursor visibility, bracketed paste)
    const n = params === '' ? 1 : Number(params);
    const line = this.lines[this.row]!;
    switch (final) {
      case 'm':
        return;
      case 'A':
        this.row = Math.max(0, this.row - n);
        return;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + n);
        return;
      case 'G':
        this.col = Math.max(0, n - 1);
        return;
      case 'K':
        if (params === '' || params === '0') line.fill(' ', this.col);
        else if (params === '2') line.fill(' ');
        else throw new Error(`ESC[${params}K`);
        return;
      default:
        throw new Error(`the screen wrote ESC[${params}${final}`);
    }
  }

  private text(s: string): void {
    for (const { segment } of segmenter.segment(s)) {
      const w = displayWidth(segment);
      if (w === 0) continue;
      if (this.col + w > this.columns) throw new Error(`a row reached past column ${this.columns}: ${JSON.stringify(this.lineText(this.lines[this.row]!))} + ${JSON.stringify(segment)}`);
      const line = this.lines[this.row]!;
      line[this.col] = segment;
      for (let k = 1; k < w; k++) line[this.col + k] = '';
      this.col += w;
      this.printed += w;
    }
  }

  private lineText(cells: readonly string[]): string {
    return cells.join('').replace(/ +$/, '');
  }

  /** The screen's lines, trailing blanks trimmed. */
  screen(): string[] {
    return this.lines.map((l) => this.lineText(l));
  }

  /** Scrollback and screen, trailing empty lines removed. */
  everything(): string[] {
    const all = [...this.scrollback, ...this.screen()];
    while (all.length && all.at(-1) === '') all.pop();
    return all;
  }
}
