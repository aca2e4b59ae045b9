import type { SessionHostApi, SessionSnapshot } from '@codewhale/engine';
import { decodeInput, flushDecoder, INITIAL_DECODER, type DecoderState } from './input-decoder.js';
import { layoutLive } from './live-layout.js';
import { frameDiff, itemText, redraw, reflowedRows, rowText } from './live-region.js';
import { displayWidth } from './rows.js';
import { nextWake, screenInput } from './screen-model.js';
import type { TuiController } from './tui-controller.js';
import type { StoreSnapshot, TuiStore } from './tui-store.js';

export interface ScreenOptions {
  readonly host: SessionHostApi;
  readonly store: TuiStore;
  readonly controller: TuiController;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  /** Colours (SGR); default on. Bold, dim and the inverse composer cursor are drawn either way. */
  readonly color?: boolean;
}

/**
 * The terminal's size now. A terminal re-wraps its screen the moment it is resized, but
 * `stdout.columns` changes only once the resize signal has been handled; a frame drawn in
 * between (from a timer, which runs before the signal is read) would be laid out, and the old
 * frame erased, at the old width. So a terminal is asked directly (`getWindowSize`).
 */
function terminalSize(stdout: NodeJS.WriteStream): { readonly columns: number; readonly rows: number } {
  if (stdout.isTTY && typeof stdout.getWindowSize === 'function') {
    try {
      const [columns, rows] = stdout.getWindowSize();
      if (columns > 0 && rows > 0) return { columns, rows };
    } catch {
      // not a terminal after all: fall back to what the stream says
    }
  }
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/**
 * The session's screen: keys in, frames out, without Ink or React.
 *
 * - **Keys** are read from stdin (raw mode) and decoded as they arrive (`decodeInput`); each
 *   goes to the controller at once. Drawing never runs in between: input stays ahead of it.
 * - **Frames**: any change of the session's or the UI's snapshot asks for a frame, drawn once
 *   the current turn of the event loop is over (`setImmediate`), so many changes make one
 *   frame, and a resize signal that arrived meanwhile has been handled first (the frame is laid
 *   out at the terminal's real width). Streamed text reaches the UI's snapshot at most once
 *   per `STREAM_FRAME_MS` (the store joins deltas), so a stream draws at most ~30 frames a second.
 * - **A frame** prints the transcript items finished since the last one, once, into the
 *   terminal's scrollback, then the live region (`layoutLive`, in terminal rows): only its
 *   changed rows are written (`frameDiff`). After a resize the old live region is erased as
 *   the terminal has re-wrapped it (`reflowedRows`) and drawn whole.
 */
export class Screen {
  private rows: string[] = [];
  private widths: number[] = [];
  /** Id of the last transcript item printed. */
  private printed = 0;
  private drawn: { session: SessionSnapshot; snap: StoreSnapshot; columns: number; rows: number } | null = null;
  private pending: NodeJS.Immediate | null = null;
  private wake: { at: number; timer: NodeJS.Timeout } | null = null;
  private decoder: DecoderState = INITIAL_DECODER;
  private decoderFlush: NodeJS.Immediate | null = null;
  private readonly color: boolean;
  private readonly offs: (() => void)[] = [];
  private stopped = false;
  /** The wake timer fired: draw even if no snapshot changed (the time did). */
  private woken = false;

  constructor(private readonly o: ScreenOptions) {
    this.color = o.color ?? true;
  }

  start(): void {
    const { stdin, stdout, host, store } = this.o;
    if (stdin.isTTY && typeof stdin.setRawMode === 'function') stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    const onData = (chunk: string | Buffer) => this.onInput(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    stdin.on('data', onData);
    stdin.ref?.();
    stdin.resume();
    const onResize = () => this.schedule();
    stdout.on('resize', onResize);
    this.offs.push(
      () => stdin.off('data', onData),
      () => stdout.off('resize', onResize),
      store.subscribe(() => this.schedule()),
      // The session's events come every delta; only a new snapshot can change the screen.
      host.subscribe(() => {
        if (host.getSnapshot() !== this.drawn?.session) this.schedule();
      }),
    );
    stdout.write(HIDE_CURSOR);
    this.draw();
  }

  /** Draw what is pending now, stop reading keys and give the terminal back (the last frame stays). */
  stop(): void {
    if (this.stopped) return;
    this.draw();
    this.stopped = true;
    for (const off of this.offs.splice(0)) off();
    if (this.pending) clearImmediate(this.pending);
    if (this.decoderFlush) clearImmediate(this.decoderFlush);
    if (this.wake) clearTimeout(this.wake.timer);
    const { stdin, stdout } = this.o;
    if (stdin.isTTY && typeof stdin.setRawMode === 'function') stdin.setRawMode(false);
    stdin.pause();
    stdin.unref?.();
    stdout.write(SHOW_CURSOR);
  }

  private onInput(text: string): void {
    if (this.decoderFlush) clearImmediate(this.decoderFlush);
    this.decoderFlush = null;
    const r = decodeInput(this.decoder, text);
    this.decoder = r.state;
    for (const k of r.keys) this.o.controller.handleKey(k);
    // A lone Esc (or the start of a sequence) waits for the rest of this read, then is a key.
    if (this.decoder.pending) {
      this.decoderFlush = setImmediate(() => {
        this.decoderFlush = null;
        const f = flushDecoder(this.decoder);
        this.decoder = f.state;
        for (const k of f.keys) this.o.controller.handleKey(k);
      });
    }
  }

  /** Ask for a frame after the current turn of the event loop. */
  private schedule(): void {
    if (this.stopped || this.pending) return;
    this.pending = setImmediate(() => {
      this.pending = null;
      this.draw();
    });
  }

  private draw(): void {
    if (this.stopped) return;
    if (this.pending) clearImmediate(this.pending);
    this.pending = null;
    const { host, store, controller, stdout } = this.o;
    const session = host.getSnapshot();
    const snap = store.getSnapshot();
    const { columns, rows: height } = terminalSize(stdout);
    const now = Date.now();
    const d = this.drawn;
    const timed = this.woken;
    this.woken = false;
    if (d && !timed && d.session === session && d.snap === snap && d.columns === columns && d.rows === height) return;
    this.drawn = { session, snap, columns, rows: height };

    // Transcript items finished since the last frame (ids only grow).
    const items = snap.ui.items;
    let from = items.length;
    while (from > 0 && items[from - 1]!.id > this.printed) from--;
    let above = '';
    for (let i = from; i < items.length; i++) above += itemText(items[i]!, columns, this.color);
    if (items.length) this.printed = Math.max(this.printed, items.at(-1)!.id);

    const laid = layoutLive(screenInput({ session, snap, menu: controller.menu(), canAlwaysAllow: controller.canAlwaysAllow, now, columns, rows: height }));
    const next = laid.map((r) => rowText(r, this.color));
    const onScreen = reflowedRows(this.widths, columns);
    const out = above !== '' || onScreen !== this.rows.length ? redraw(onScreen, above, next) : frameDiff(this.rows, next);
    this.rows = next;
    this.widths = laid.map((r) => displayWidth(r.prefix ?? '') + displayWidth(r.text) + (r.cursor !== undefined && r.cursor >= Array.from(r.text).length ? 1 : 0));
    if (out !== '') stdout.write(out);
    this.arm(nextWake(session, snap, now));
  }

  /** Draw again at `at` (a toast expires, a running hook becomes worth naming). */
  private arm(at: number | null): void {
    if (this.wake && (at === null || this.wake.at !== at)) {
      clearTimeout(this.wake.timer);
      this.wake = null;
    }
    if (at === null || this.wake) return;
    const timer = setTimeout(
      () => {
        this.wake = null;
        this.woken = true;
        this.o.store.dispatch({ type: 'tick', now: Date.now() });
        this.draw();
      },
      Math.max(10, at - Date.now() + 5),
    );
    this.wake = { at, timer };
  }
}
