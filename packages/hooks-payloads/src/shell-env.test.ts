import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseShellEnvOutput, mergeShellEnv } from './shell-env.js';
import { utf8ByteLength } from './utf8.js';

const one = (line: string): [string, string][] => [...parseShellEnvOutput(line).vars];

describe('parseShellEnvOutput: the reference §12.2 table, row by row', () => {
  it.each<[string, [string, string][]]>([
    ['AWS_ACCESS_KEY_ID=AKIAEXAMPLE', [['AWS_ACCESS_KEY_ID', 'AKIAEXAMPLE']]],
    ['export GITHUB_TOKEN=ghp_x', [['GITHUB_TOKEN', 'ghp_x']]],
    ['QUOTED="value with spaces"', [['QUOTED', 'value with spaces']]],
    ["SINGLE='also valid'", [['SINGLE', 'also valid']]],
    ['KEY = value', [['KEY', 'value']]],
    ['KEY=', [['KEY', '']]],
    ['KEY=""', [['KEY', '']]],
    ['KEY="abc', [['KEY', '"abc']]],
    ['KEY="a"b"', [['KEY', 'a"b']]],
    ['KEY=1 # note', [['KEY', '1 # note']]],
    ['KEY=a=b', [['KEY', 'a=b']]],
    ['  # comment', []],
    ['', []],
    ['= empty key dropped', []],
    ['NOEQUAL line dropped', []],
    ['MY KEY=1', []],
    ['EXPORT KEY=1', []],
    ['export\tKEY=1', []],
    ['BA\u0000D=x', []],
    ['BAD=tok\u0000en', []],
    [`HUGE=${'x'.repeat(32_769)}`, []],
  ])('%j', (line, expected) => {
    expect(one(line)).toEqual(expected);
  });

  it('does not unquote a mismatched pair, or expand anything', () => {
    expect(one(`K="a'`)).toEqual([['K', `"a'`]]);
    expect(one('K=$HOME/${X}')).toEqual([['K', '$HOME/${X}']]);
    expect(one('K="\\n"')).toEqual([['K', '\\n']]);
    expect(one("K='")).toEqual([['K', "'"]]);
  });
});

describe('parseShellEnvOutput', () => {
  it('handles realistic hook output: exactly 4 entries', () => {
    const out = [
      '# credentials for this call',
      'export AWS_ACCESS_KEY_ID=AKIAEXAMPLE',
      'AWS_SECRET_ACCESS_KEY="wJalr/K7MDENG"',
      "AWS_SESSION_TOKEN='FwoGZX'",
      '',
      '=orphan',
      'just some log line',
      'PATH=/opt/bin:/usr/bin',
    ].join('\n');
    const r = parseShellEnvOutput(out);
    expect([...r.vars]).toEqual([
      ['AWS_ACCESS_KEY_ID', 'AKIAEXAMPLE'],
      ['AWS_SECRET_ACCESS_KEY', 'wJalr/K7MDENG'],
      ['AWS_SESSION_TOKEN', 'FwoGZX'],
      ['PATH', '/opt/bin:/usr/bin'],
    ]);
    expect(r.dropped).toEqual([{ key: null, reason: 'empty_name', line: 6 }]);
  });

  it('is empty when there are no assignments', () => {
    expect(parseShellEnvOutput('hello\nworld\n# x\n').vars.size).toBe(0);
    expect(parseShellEnvOutput('').vars.size).toBe(0);
  });

  it('strips CR of CRLF lines', () => {
    expect([...parseShellEnvOutput('A=1\r\nB="2"\r\n').vars]).toEqual([
      ['A', '1'],
      ['B', '2'],
    ]);
  });

  it('drops a name with any Unicode whitespace (D19), a control character or NUL', () => {
    for (const name of ['A\u00a0B', 'A\u3000B', 'A\u2028B', 'A\u2003B', 'A\u001bB', 'A\u007fB', 'A\u0085B', 'A\u0000B', 'A\vB', 'A\fB']) {
      const r = parseShellEnvOutput(`${name}=1\nOK=2`);
      expect([...r.vars]).toEqual([['OK', '2']]);
      expect(r.dropped).toEqual([{ key: null, reason: 'invalid_name', line: 1 }]);
    }
  });

  it('drops a NUL-bearing entry only, reporting it by key', () => {
    const r = parseShellEnvOutput('GOOD=1\nBAD=a\u0000b\nALSO=2');
    expect([...r.vars.keys()]).toEqual(['GOOD', 'ALSO']);
    expect(r.dropped).toEqual([{ key: 'BAD', reason: 'nul_in_value', line: 2 }]);
  });

  it('bounds a single value at 32 KiB (after unquoting) and keeps the other lines', () => {
    const exact = 'v'.repeat(32_768);
    expect(parseShellEnvOutput(`K="${exact}"`).vars.get('K')).toBe(exact);
    const r = parseShellEnvOutput(`A=1\nHUGE=${exact}x\nB=2`);
    expect([...r.vars.keys()]).toEqual(['A', 'B']);
    expect(r.dropped).toEqual([{ key: 'HUGE', reason: 'value_too_large', line: 2 }]);
    expect(parseShellEnvOutput(`M=${'鲸'.repeat(10_923)}`).vars.size).toBe(0); // 32,769 bytes
  });

  it('stops at 256 KiB of accepted key+value bytes: 64 × 16 KiB', () => {
    const lines = Array.from({ length: 64 }, (_, i) => `K${String(i).padStart(2, '0')}=${'x'.repeat(16_384)}`);
    const r = parseShellEnvOutput(lines.join('\n'));
    let total = 0;
    for (const [k, v] of r.vars) total += utf8ByteLength(k) + utf8ByteLength(v);
    expect(total).toBeLessThanOrEqual(262_144);
    expect(r.vars.size).toBe(15); // 15 × 16,387 bytes fit; the 16th would not
    expect(r.dropped).toEqual([{ key: 'K15', reason: 'output_limit', line: 16 }]);
  });

  it('accepts exactly 262,144 bytes and drops everything after the first entry that overflows', () => {
    const v = 'y'.repeat(32_768 - 1); // key "A" + value = 32,768 bytes
    const lines = Array.from({ length: 8 }, () => `A=${v}`);
    const r = parseShellEnvOutput([...lines, 'B=1', 'C=2'].join('\n'));
    expect(r.vars.get('A')).toBe(v); // duplicates count twice; the later line wins
    expect(r.vars.has('B')).toBe(false);
    expect(r.vars.has('C')).toBe(false);
    expect(r.dropped).toEqual([{ key: 'B', reason: 'output_limit', line: 9 }]);
  });

  it('lets a later duplicate win and moves it to its new position', () => {
    expect([...parseShellEnvOutput('A=1\nB=2\nA=3').vars]).toEqual([
      ['B', '2'],
      ['A', '3'],
    ]);
  });

  it('drops a partial last line when the output was cut at its limit (never parsing a cut value)', () => {
    const r = parseShellEnvOutput('A=1\nB=2\nC=parti', true);
    expect([...r.vars]).toEqual([
      ['A', '1'],
      ['B', '2'],
    ]);
    expect(r.dropped).toEqual([{ key: null, reason: 'partial_line', line: 3 }]);
    const atNewline = parseShellEnvOutput('A=1\nB=2\n', true);
    expect([...atNewline.vars.keys()]).toEqual(['A', 'B']);
    expect(atNewline.dropped).toEqual([]);
    expect(parseShellEnvOutput('PARTIAL=abc', true)).toEqual({ vars: new Map(), dropped: [{ key: null, reason: 'partial_line', line: 1 }] });
  });

  it('never reports a dropped value', () => {
    const r = parseShellEnvOutput('S=sec\u0000ret\nMY KEY=hunter2\n');
    expect(JSON.stringify(r.dropped)).not.toContain('sec');
    expect(JSON.stringify(r.dropped)).not.toContain('hunter2');
    expect(JSON.stringify(r.dropped)).not.toContain('MY KEY');
  });
});

describe('mergeShellEnv', () => {
  it('lets later hooks override earlier ones key by key', () => {
    const first = parseShellEnvOutput('SHARED=first\nONLY_FIRST=1').vars;
    const failing = new Map<string, string>();
    const second = parseShellEnvOutput('SHARED=second\nONLY_SECOND=2').vars;
    expect(Object.fromEntries(mergeShellEnv([first, failing, second]))).toEqual({ SHARED: 'second', ONLY_FIRST: '1', ONLY_SECOND: '2' });
    expect(mergeShellEnv([]).size).toBe(0);
  });
});

describe('properties', () => {
  const unit = fc.oneof(
    fc.constantFrom('=', ' ', '\t', '\n', '\r', '\u0000', '"', "'", '#', 'export ', '\u00a0', '\u3000', '\u001b', 'A', 'z', '_', '9', '鲸'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
  );
  const output = fc.oneof(
    fc.string({ unit, maxLength: 200 }),
    fc.array(fc.tuple(fc.stringMatching(/^[A-Z_]{1,6}$/), fc.integer({ min: 0, max: 40_000 })), { maxLength: 20 }).map((pairs) => pairs.map(([k, n]) => `${k}=${'v'.repeat(n)}`).join('\n')),
  );

  it('never yields a bad key, a NUL value, a value over 32 KiB or more than 256 KiB in total', () => {
    fc.assert(
      fc.property(output, fc.boolean(), (out, truncated) => {
        const { vars, dropped } = parseShellEnvOutput(out, truncated);
        let total = 0;
        for (const [k, v] of vars) {
          expect(k).not.toBe('');
          expect(k).not.toMatch(/[\s=\u0000-\u001f\u007f-\u009f]/u);
          expect(v).not.toContain('\u0000');
          expect(utf8ByteLength(v)).toBeLessThanOrEqual(32_768);
          total += utf8ByteLength(k) + utf8ByteLength(v);
        }
        expect(total).toBeLessThanOrEqual(262_144);
        for (const d of dropped) if (d.key !== null) expect(d.key).not.toMatch(/[\s=\u0000-\u001f\u007f-\u009f]/u);
      }),
      { numRuns: 120 },
    );
  });

  it('a well-formed KEY=VALUE line round-trips', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/), fc.stringMatching(/^[^\s"'\u0000][^\n\r\u0000]{0,30}[^\s"'\u0000]$/), (k, v) => {
        expect(parseShellEnvOutput(`export ${k}=${v}\n`).vars.get(k)).toBe(v);
        expect(parseShellEnvOutput(`${k}="${v}"`).vars.get(k)).toBe(v);
      }),
      { numRuns: 200 },
    );
  });
});
