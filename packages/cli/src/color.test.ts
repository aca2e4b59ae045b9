import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colorEnabled, paint } from './color.js';

const env = fc.record(
  { FORCE_COLOR: fc.constantFrom('', '0', '1', '2', '3', 'false', 'true'), NO_COLOR: fc.constantFrom('', '1', 'yes'), TERM: fc.constantFrom('dumb', 'xterm-256color') },
  { requiredKeys: [] },
);

describe('colorEnabled', () => {
  it('FORCE_COLOR decides when set, then NO_COLOR, then TERM=dumb, then the terminal', () => {
    fc.assert(
      fc.property(env, fc.boolean(), (e, tty) => {
        const got = colorEnabled(e, tty);
        if (e.FORCE_COLOR !== undefined) expect(got).toBe(e.FORCE_COLOR !== '0' && e.FORCE_COLOR !== 'false');
        else if (e.NO_COLOR) expect(got).toBe(false);
        else if (e.TERM === 'dumb') expect(got).toBe(false);
        else expect(got).toBe(tty);
      }),
    );
  });

  it('defaults to the terminal', () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
  });
});

describe('paint', () => {
  it('adds SGR codes only when enabled, and never changes the text itself', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('bold', 'red', 'dim', 'yellow') as fc.Arbitrary<'bold'>, (text, style) => {
        expect(paint(false, style, text)).toBe(text);
        const on = paint(true, style, text);
        expect(on.replace(/\x1b\[\d+m/g, '')).toBe(text);
        if (text !== '') expect(on).not.toBe(text);
      }),
    );
  });
});
