import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eraseLines, LiveStdout, reflowedRows, widenErase, writtenRows } from './live-stdout.js';
import { displayWidth } from './rows.js';

const cell = fc.constantFrom('a', 'b', ' ', '漢', '🐳', 'word');
const rowText = fc.array(cell, { maxLength: 40 }).map((c) => c.join(''));
/** A frame as Ink writes it: rows, some coloured, each ending in a newline. */
const frame = fc.array(fc.tuple(rowText, fc.boolean()), { minLength: 1, maxLength: 12 }).map((rows) => ({
  widths: rows.map(([t]) => displayWidth(t)),
  text: `${rows.map(([t, colour]) => (colour ? `\x1b[36m${t}\x1b[39m` : t)).join('\n')}\n`,
}));
/** Rows an erase covers: the cursor's line and every line it moves up over. */
const erased = (s: string) => s.split('\x1b[1A').length;

describe('writtenRows / widenErase', () => {
  it('measures the rows of a frame as written, colours ignored', () => {
    fc.assert(
      fc.property(frame, (f) => {
        expect(writtenRows(f.text)).toEqual(f.widths);
      }),
    );
  });

  it("erases every row the frame on screen takes at the terminal's width, and no more", () => {
    fc.assert(
      fc.property(frame, frame, fc.integer({ min: 1, max: 120 }), (onScreen, next, columns) => {
        // Ink erases one line per row it wrote, plus the cursor's line.
        const chunk = eraseLines(onScreen.widths.length + 1) + next.text;
        const w = widenErase(chunk, onScreen.text, columns);
        expect(erased(w.out)).toBe(reflowedRows(onScreen.widths, columns) + 1);
        expect(w.out.endsWith(chunk)).toBe(true);
        expect(w.onScreen).toBe(next.text);
        // A terminal wide enough for every row: the write is left as Ink made it.
        if (Math.max(...onScreen.widths) <= columns) expect(w.out).toBe(chunk);
      }),
    );
  });

  it('tracks the frame on screen: an erase alone empties it, a mode switch leaves it, text replaces it', () => {
    expect(writtenRows(widenErase(eraseLines(3), 'x\ny\n', 80).onScreen ?? 'none')).toEqual([]);
    expect(widenErase('\x1b[?2026h', 'x\ny\n', 80).onScreen).toBeNull();
    expect(widenErase('\x1b[?25l', 'x\n', 80).out).toBe('\x1b[?25l');
    expect(widenErase('transcript\n', 'x\n', 80).onScreen).toBe('transcript\n');
  });
});

class FakeTerminal extends EventEmitter {
  columns = 60;
  rows = 20;
  readonly written: string[] = [];
  write(s: string): boolean {
    this.written.push(s);
    return true;
  }
}

describe('LiveStdout', () => {
  it('holds writes until the resize waiting in the same turn has been handled, then widens the erase', async () => {
    const term = new FakeTerminal();
    const live = new LiveStdout(term as unknown as NodeJS.WriteStream);
    const wide = `${'x'.repeat(59)}\n${'y'.repeat(59)}\n`;
    live.write(wide);
    await new Promise((r) => setImmediate(r));
    expect(term.written).toEqual([wide]);
    // The next frame is written by Ink before the process has heard of the narrower terminal.
    live.write(`${eraseLines(3)}z\n`);
    expect(term.written).toHaveLength(1);
    term.columns = 30;
    term.emit('resize');
    await new Promise((r) => setImmediate(r));
    // Two rows of 59 take four at 30: the cursor's line and four above, not two.
    expect(erased(term.written[1]!)).toBe(5);
    live.dispose();
  });

  it('passes on resize events and sends what is held when disposed', () => {
    const term = new FakeTerminal();
    const live = new LiveStdout(term as unknown as NodeJS.WriteStream);
    let resized = 0;
    live.on('resize', () => resized++);
    term.emit('resize');
    expect(resized).toBe(1);
    live.write('last\n');
    live.dispose();
    expect(term.written).toEqual(['last\n']);
    term.emit('resize');
    expect(resized).toBe(1);
  });
});
