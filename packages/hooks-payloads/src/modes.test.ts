import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { canonicalMode, uiModeLabel, engineModeSpelling, modeSpellingFor } from './modes.js';

describe('canonicalMode (D9)', () => {
  it.each([
    ['act', 'work'],
    ['ACT', 'work'],
    ['Agent', 'work'],
    ['agent', 'work'],
    ['work', 'work'],
    ['Auto', 'work'],
    ['YOLO', 'work'],
    ['plan', 'plan'],
    ['PLAN', 'plan'],
    ['Plan', 'plan'],
    ['operate', 'operate'],
    ['OPERATE', 'operate'],
    [' Plan ', 'plan'],
  ])('%s → %s', (spelling, canonical) => {
    expect(canonicalMode(spelling)).toBe(canonical);
  });

  it('returns null for unknown or missing modes', () => {
    expect(canonicalMode('normal')).toBeNull();
    expect(canonicalMode('')).toBeNull();
    expect(canonicalMode(null)).toBeNull();
    expect(canonicalMode(undefined)).toBeNull();
    // only ASCII case folding: a dotted capital I is not an `i`
    expect(canonicalMode('PLAN\u0130')).toBeNull();
  });
});

describe('mode spellings (reference §17)', () => {
  it('UI-fired events use ACT / PLAN / OPERATE', () => {
    expect(uiModeLabel('work')).toBe('ACT');
    expect(uiModeLabel('plan')).toBe('PLAN');
    expect(uiModeLabel('operate')).toBe('OPERATE');
  });

  it('the engine (tool_call_before) uses Agent / Plan / Operate', () => {
    expect(engineModeSpelling('work')).toBe('Agent');
    expect(engineModeSpelling('plan')).toBe('Plan');
    expect(engineModeSpelling('operate')).toBe('Operate');
  });

  it('modeSpellingFor respells any alias for the firing side and passes unknown spellings through', () => {
    expect(modeSpellingFor('ui', 'Agent')).toBe('ACT');
    expect(modeSpellingFor('ui', 'yolo')).toBe('ACT');
    expect(modeSpellingFor('engine', 'ACT')).toBe('Agent');
    expect(modeSpellingFor('engine', 'auto')).toBe('Agent');
    expect(modeSpellingFor('engine', 'PLAN')).toBe('Plan');
    expect(modeSpellingFor('ui', 'custom-mode')).toBe('custom-mode');
  });
});

describe('properties', () => {
  it('spelling for either side round-trips to the same canonical mode', () => {
    fc.assert(
      fc.property(fc.constantFrom('act', 'agent', 'work', 'auto', 'yolo', 'plan', 'operate'), fc.boolean(), fc.constantFrom<'ui' | 'engine'>('ui', 'engine'), (m, upper, side) => {
        const s = upper ? m.toUpperCase() : m;
        expect(canonicalMode(modeSpellingFor(side, s))).toBe(canonicalMode(s));
      }),
    );
  });
});
