import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonSyntaxError } from './json-syntax-error.js';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonSyntaxError', () => {
  test.each([
    ['{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n', 3, 14, 'expected a value, found `,`'],
    ['{\n  "a": 1,\n}\n', 2, 9, 'a trailing comma is not allowed in JSON'],
    ['[1, 2, ]', 1, 6, 'a trailing comma is not allowed in JSON'],
    ['{\n  // mine\n  "a": 1\n}', 2, 3, 'comments are not allowed in JSON'],
    ["{'a': 1}", 1, 2, 'strings must be in double quotes'],
    ['{"a" 1}', 1, 6, 'expected `:` after the property name, found `1`'],
    ['{"a": 1 "b": 2}', 1, 9, 'expected `,` or `}`, found `"`'],
    ['{"a": [1, 2}', 1, 12, 'expected `,` or `]`, found `}`'],
    ['{"a": "x\ny"}', 1, 9, 'a control character (such as a line break) inside a string; write it as an escape'],
    ['{"a": "\\q"}', 1, 8, 'an invalid escape in a string'],
    ['{"a": 01}', 1, 8, 'expected `,` or `}`, found `1`'],
    ['{"a": 1', 1, 8, 'the file ends inside an unclosed `{`'],
    ['', 1, 1, 'the file is empty'],
    ['{} x', 1, 4, 'expected the end of the file after the JSON value, found `x`'],
    ['{"a": tru}', 1, 7, 'expected a value, found `t`'],
  ])('%j → line %i, column %i: %s', (text, line, column, message) => {
    expect(parses(text)).toBe(false);
    expect(jsonSyntaxError(text)).toMatchObject({ line, column, message });
  });

  test('valid JSON has no error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (v, indent) => {
        expect(jsonSyntaxError(JSON.stringify(v, null, indent))).toBeNull();
      }),
    );
  });

  test('it finds an error exactly when JSON.parse refuses the text', () => {
    const jsonish = fc.stringMatching(/^[{}[\]",: \n\t0-9.eE+\-tfrulnase\\/'a-d]{0,24}$/);
    const mutated = fc.tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '/', ' ', '\n', 'x')).map(([v, k, ins]) => {
      const s = JSON.stringify(v);
      const at = k % (s.length + 1);
      return s.slice(0, at) + ins + s.slice(at + (k % 2));
    });
    fc.assert(
      fc.property(fc.oneof(jsonish, mutated), (text) => {
        const e = jsonSyntaxError(text);
        expect(e === null, text).toBe(parses(text));
        if (e) expect(e.offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 3000 },
    );
  });

  test('deep nesting does not overflow the stack', () => {
    expect(jsonSyntaxError(`${'['.repeat(200_000)}${']'.repeat(199_999)}`)).toMatchObject({ message: 'the file ends inside an unclosed `[`' });
  });
});
