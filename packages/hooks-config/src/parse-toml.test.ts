import { describe, expect, it } from 'vitest';
import { parseToml } from './parse-toml.js';

describe('parseToml', () => {
  it('keeps 64-bit integers exact: small ones as numbers, large ones as bigint', () => {
    const r = parseToml('a = 3221225477\nb = 1\nc = 99999999999999999999\nd = 9223372036854775807\n', 'x.toml');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value['a']).toBe(3221225477);
    expect(r.value['b']).toBe(1);
    expect(r.value['c']).toBe(99999999999999999999n);
    expect(r.value['d']).toBe(9223372036854775807n);
  });

  it('fails the whole file on a syntax error with file, line, column and a one-line message', () => {
    const r = parseToml('[hooks]\nenabled = true\n[[hooks.hooks]]\ncommand = "echo secret-token\nevent = "x"\n', '/home/u/.codewhale/config.toml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const issue = r.issues[0]!;
    expect(issue.code).toBe('toml_syntax');
    expect(issue.file).toBe('/home/u/.codewhale/config.toml');
    expect(issue.line).toBe(4);
    expect(issue.column).toBeGreaterThan(0);
    expect(issue.message).not.toContain('\n');
    expect(issue.message).not.toContain('secret-token');
    expect(issue.summary).toBe(`/home/u/.codewhale/config.toml:4:${issue.column}: TOML syntax error: ${issue.message}`);
  });

  it('reports a missing value at its exact line and column', () => {
    const r = parseToml('a = 1\nb = \n', 'c.toml');
    expect(r.ok ? null : [r.issues[0]!.line, r.issues[0]!.column, r.issues[0]!.message]).toEqual([2, 5, 'invalid value']);
  });
});
