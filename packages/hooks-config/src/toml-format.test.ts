import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToml } from './parse-toml.js';
import { formatTomlKey, formatTomlString, formatTomlValue } from './toml-format.js';

describe('TOML formatting', () => {
  it('escapes quotes, backslashes and controls', () => {
    expect(formatTomlString('a"b\\c\n\u0001\u007f')).toBe('"a\\"b\\\\c\\n\\u0001\\u007F"');
    expect(formatTomlKey('trust_level')).toBe('trust_level');
    expect(formatTomlKey('/a/b')).toBe('"/a/b"');
    expect(formatTomlValue({})).toBe('{}');
    expect(formatTomlValue({ 'a b': 'x' })).toBe('{ "a b" = "x" }');
    expect(formatTomlValue(false)).toBe('false');
  });
});

describe('properties', () => {
  it('any well-formed string round-trips through a basic string and a key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const r = parseToml(`${formatTomlKey(s || 'k')} = ${formatTomlString(s)}\n`, 't.toml');
        expect(r.ok && r.value[s || 'k']).toBe(s);
      }),
    );
  });
});
