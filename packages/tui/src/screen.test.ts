import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeHost } from '../test/fake-host.js';
import { Vt } from '../test/vt.js';
import { Screen } from './screen.js';
import { TuiController } from './tui-controller.js';
import { STREAM_FRAME_MS, TuiStore } from './tui-store.js';
import { HOOK_SHOW_AFTER_MS } from './view-models.js';

const COLUMNS = 60;
const ROWS = 20;

function mount() {
  const host = new FakeHost();
  const store = new TuiStore();
  const controller = new TuiController({ host, store, workspace: '/ws', onExit: () => {} });
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin }) as unknown as NodeJS.ReadStream;
  const vt = new Vt(COLUMNS, ROWS);
  let writes = 0;
  const stdout = Object.assign(
    new Writable({
      write(chunk, _e, cb) {
        writes++;
        vt.write(String(chunk));
        cb();
      },
    }),
    { isTTY: true, columns: COLUMNS, rows: ROWS },
  ) as unknown as NodeJS.WriteStream;
  const screen = new Screen({ host, store, controller, stdin, stdout });
  screen.start();
  return {
    host,
    store,
    stdin,
    vt,
    screen,
    get writes() {
      return writes;
    },
  };
}

/** Let stream events (nextTick, microtasks) run; timers stay faked. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => process.nextTick(r));
};
const squash = (lines: readonly string[]) => lines.join('').replace(/\s+/g, '');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Screen', () => {
  it('property: a stream of small deltas draws at most one frame per stream frame, and every word lands once, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 50, max: 600 }), fc.integer({ min: 1, max: 4 }), (deltas, gapMs) => {
        const s = mount();
        s.host.update({ busy: true, state: 'in_progress' });
        vi.advanceTimersByTime(50);
        const before = s.writes;
        const words: string[] = [];
        for (let i = 0; i < deltas; i++) {
          const w = `w${i}`;
          words.push(w);
          s.host.emit({ type: 'text_delta', text: `${w}${i % 40 === 39 ? '\n' : ' '}` });
          vi.advanceTimersByTime(gapMs);
        }
        const elapsed = deltas * gapMs;
        // At most one frame per STREAM_FRAME_MS, plus the one that ends the burst.
        expect(s.writes - before).toBeLessThanOrEqual(Math.ceil(elapsed / STREAM_FRAME_MS) + 2);
        s.host.emit({
          type: 'turn_completed',
          turnId: 't',
          status: 'completed',
          error: null,
          usage: { inputTokens: 0, outputTokens: 0 } as never,
          toolCount: 0,
          durationMs: 1,
          createdAt: '',
          provider: 'p',
          model: 'm',
        } as never);
        vi.advanceTimersByTime(100);
        // Every word once, in order: the whole answer is one run of the transcript.
        const text = squash(s.vt.everything());
        expect(text.split(words.join('')).length - 1, text).toBe(1);
        s.screen.stop();
      }),
      { numRuns: 25 },
    );
  });

  it('lays a frame out at the size the terminal reports now, before its resize signal is handled', () => {
    // The terminal is 40 columns wide already; `columns` still says 80 (no resize event yet).
    const host = new FakeHost();
    const store = new TuiStore();
    const controller = new TuiController({ host, store, workspace: '/ws', onExit: () => {} });
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin }) as unknown as NodeJS.ReadStream;
    const vt = new Vt(40, ROWS);
    const stdout = Object.assign(
      new Writable({
        write(chunk, _e, cb) {
          vt.write(String(chunk));
          cb();
        },
      }),
      { isTTY: true, columns: 80, rows: ROWS, getWindowSize: () => [40, ROWS] },
    ) as unknown as NodeJS.WriteStream;
    const screen = new Screen({ host, store, controller, stdin, stdout });
    screen.start();
    host.update({ busy: true, state: 'in_progress' });
    host.emit({ type: 'text_delta', text: `${'wide '.repeat(30)}END` });
    // Vt throws on any row past its 40 columns.
    expect(() => vi.advanceTimersByTime(STREAM_FRAME_MS + 10)).not.toThrow();
    expect(squash(vt.screen())).toContain(`${'wide'.repeat(30)}END`);
    screen.stop();
  });

  it('draws a key before the stream frame that is due: input is ahead of rendering', async () => {
    const s = mount();
    s.host.update({ busy: true, state: 'in_progress' });
    vi.advanceTimersByTime(50);
    s.host.emit({ type: 'text_delta', text: 'streaming text ' });
    // A stream frame is pending (STREAM_FRAME_MS away); a key arrives now.
    s.stdin.write('x');
    await settle();
    vi.advanceTimersByTime(0);
    expect(s.vt.screen().join('\n')).toMatch(/» x/);
    expect(s.vt.screen().join('\n')).not.toMatch(/streaming text/);
    vi.advanceTimersByTime(STREAM_FRAME_MS + 10);
    expect(s.vt.screen().join('\n')).toMatch(/streaming text/);
    s.screen.stop();
  });

  it('names a running hook once it has run for HOOK_SHOW_AFTER_MS, with nothing else changing', () => {
    const s = mount();
    s.host.update({ busy: true, state: 'in_progress', activeHook: { event: 'tool_call_before', label: 'slow-gate', index: 1, total: 1, startedAt: Date.now() } });
    vi.advanceTimersByTime(0);
    expect(s.vt.screen().join('\n')).not.toMatch(/slow-gate/);
    vi.advanceTimersByTime(HOOK_SHOW_AFTER_MS + 20);
    expect(s.vt.screen().join('\n')).toMatch(/tool_call_before hook slow-gate \(1\/1\)/);
    s.screen.stop();
  });

  it('redraws when a toast expires, with nothing else changing', () => {
    const s = mount();
    s.store.dispatch({ type: 'toast', level: 'info', message: 'short-lived', durationMs: 500, now: Date.now() });
    vi.advanceTimersByTime(0);
    expect(s.vt.screen().join('\n')).toMatch(/short-lived/);
    vi.advanceTimersByTime(600);
    expect(s.vt.screen().join('\n')).not.toMatch(/short-lived/);
    s.screen.stop();
  });
});
