import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { toJson, tryParseJson, isJsonObject } from './json.js';

describe('toJson', () => {
  it('keeps the key order the object was built in', () => {
    expect(toJson({ z: 1, a: 2, m: { y: true, b: null } })).toBe('{"z":1,"a":2,"m":{"y":true,"b":null}}');
  });

  it('writes a bigint as a plain integer (signed 64-bit exit codes)', () => {
    expect(toJson({ exit_code: 3221225477n })).toBe('{"exit_code":3221225477}');
    expect(toJson({ exit_code: -(2n ** 63n) })).toBe('{"exit_code":-9223372036854775808}');
    expect(toJson([2n ** 63n - 1n])).toBe('[9223372036854775807]');
  });

  it('skips undefined members and writes non-finite numbers as null', () => {
    expect(toJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(toJson({ n: Number.NaN, i: Number.POSITIVE_INFINITY })).toBe('{"n":null,"i":null}');
  });

  it('escapes strings exactly like JSON.stringify (no / escaping, lowercase \\u00xx)', () => {
    const s = 'a/b "q" \\ \n\t\u0001\u001f\u007f 鲸 \u2028';
    expect(toJson(s)).toBe(JSON.stringify(s));
    expect(toJson('\u001f')).toBe('"\\u001f"');
  });
});

describe('tryParseJson / isJsonObject', () => {
  it('parses JSON and reports non-JSON without throwing', () => {
    expect(tryParseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(tryParseJson('not json')).toEqual({ ok: false });
    expect(tryParseJson('')).toEqual({ ok: false });
  });

  it('only a plain object is a JSON object', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject('{}')).toBe(false);
    expect(isJsonObject(1)).toBe(false);
  });
});

describe('properties', () => {
  it('is byte-identical to JSON.stringify for ordinary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => toJson(v as never) === JSON.stringify(v)),
      { numRuns: 300 },
    );
  });
});
