import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { compileToolNameGlob, matchToolNameGlob } from './tool-name-glob.js';

describe('matchToolNameGlob (reference §1)', () => {
  it('mcp__* matches every MCP tool and nothing else', () => {
    expect(matchToolNameGlob('mcp__*', 'mcp__github__create_issue')).toBe(true);
    expect(matchToolNameGlob('mcp__*', 'mcp__')).toBe(true);
    expect(matchToolNameGlob('mcp__*', 'mcp_x')).toBe(false);
    expect(matchToolNameGlob('mcp__*', 'xmcp__a')).toBe(false);
  });

  it('without * it is an exact, anchored, case-sensitive match', () => {
    expect(matchToolNameGlob('read_file', 'read_file')).toBe(true);
    expect(matchToolNameGlob('read_files', 'read_file')).toBe(false);
    expect(matchToolNameGlob('read_file', 'read_files')).toBe(false);
    expect(matchToolNameGlob('read_file', 'xread_file')).toBe(false);
    expect(matchToolNameGlob('Read_file', 'read_file')).toBe(false);
  });

  it('escapes regex metacharacters', () => {
    expect(matchToolNameGlob('mcp.git*', 'mcpXgithub')).toBe(false);
    expect(matchToolNameGlob('mcp.git*', 'mcp.github')).toBe(true);
    expect(matchToolNameGlob('weird+tool(*)', 'weird+tool(anything)')).toBe(true);
    expect(matchToolNameGlob('weird+tool(*)', 'weird+tool()')).toBe(true);
    expect(matchToolNameGlob('weird+tool(*)', 'weirddtool(x)')).toBe(false);
    expect(matchToolNameGlob('a?b', 'ab')).toBe(false);
    expect(matchToolNameGlob('a|b', 'a')).toBe(false);
    expect(matchToolNameGlob('[ab]', 'a')).toBe(false);
    expect(matchToolNameGlob('^$.+?()[]{}|/\\', '^$.+?()[]{}|/\\')).toBe(true);
  });

  it('treats a hyphen, which is common in tool names, literally', () => {
    expect(matchToolNameGlob('my-tool', 'my-tool')).toBe(true);
    expect(matchToolNameGlob('mcp__my-server__*', 'mcp__my-server__list')).toBe(true);
    expect(matchToolNameGlob('a-z', 'b')).toBe(false);
  });

  it('supports infix and suffix positions', () => {
    expect(matchToolNameGlob('mcp__*__create', 'mcp__github__create')).toBe(true);
    expect(matchToolNameGlob('mcp__*__create', 'mcp__github__create_issue')).toBe(false);
    expect(matchToolNameGlob('*_file', 'read_file')).toBe(true);
    expect(matchToolNameGlob('*_file', 'read_files')).toBe(false);
    expect(matchToolNameGlob('*file*', 'my_file_tool')).toBe(true);
    expect(matchToolNameGlob('*', '')).toBe(true);
    expect(matchToolNameGlob('*', 'anything at all')).toBe(true);
  });

  it('* spans any characters, newlines and astral code points included', () => {
    expect(matchToolNameGlob('a*b', 'a\nb')).toBe(true);
    expect(matchToolNameGlob('a*b', 'a🐋b')).toBe(true);
  });

  it('compiles to a reusable matcher', () => {
    const glob = compileToolNameGlob('mcp__*');
    expect(glob.test('mcp__x')).toBe(true);
    expect(glob.test('xmcp__x')).toBe(false);
    expect(glob.pattern).toBe('mcp__*');
  });

  it('middle runs are found in order and never overlap the prefix or suffix', () => {
    expect(matchToolNameGlob('ab*ba', 'aba')).toBe(false);
    expect(matchToolNameGlob('ab*ba', 'abba')).toBe(true);
    expect(matchToolNameGlob('a*aa*a', 'aaa')).toBe(false);
    expect(matchToolNameGlob('a*aa*a', 'aaaa')).toBe(true);
    expect(matchToolNameGlob('*abab*', 'aabaabab')).toBe(true);
    expect(matchToolNameGlob('*b*a*', 'ab')).toBe(false);
    expect(matchToolNameGlob('**', '')).toBe(true);
    expect(matchToolNameGlob('a**b', 'ab')).toBe(true);
  });

  it('a lone surrogate in the pattern never matches half of a pair', () => {
    expect(matchToolNameGlob('*\uDC0B', '\uD83D\uDC0B')).toBe(false);
    expect(matchToolNameGlob('\uD83D*', '\uD83D\uDC0B')).toBe(false);
  });
});

describe('catastrophic patterns', () => {
  it('`*a*a*…*b` against a 40-character name is linear work, not backtracking', () => {
    const pattern = `${'*a'.repeat(11)}*b`;
    const name = 'a'.repeat(40);
    const { matched, steps } = compileToolNameGlob(pattern).testCounted(name);
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual(2 * 40 + 2 * [...pattern].length);
    // 200 stars against a 10,000-character name still answers (a backtracking matcher never would).
    const huge = compileToolNameGlob(`${'*a'.repeat(200)}*b`).testCounted('a'.repeat(10_000));
    expect(huge.matched).toBe(false);
    expect(huge.steps).toBeLessThanOrEqual(2 * 10_000 + 2 * 402);
  });
});

/** The obvious O(n·m) dynamic-programming glob matcher over code points: the reference. */
function referenceMatch(pattern: string, name: string): boolean {
  const p = [...pattern];
  const n = [...name];
  let row = new Array<boolean>(n.length + 1).fill(false);
  row[0] = true;
  for (const pc of p) {
    const next = new Array<boolean>(n.length + 1).fill(false);
    if (pc === '*') {
      next[0] = row[0]!;
      for (let j = 1; j <= n.length; j++) next[j] = row[j]! || next[j - 1]!;
    } else {
      for (let j = 1; j <= n.length; j++) next[j] = row[j - 1]! && n[j - 1] === pc;
    }
    row = next;
  }
  return row[n.length]!;
}

describe('properties', () => {
  const name = fc.string({ unit: 'binary', maxLength: 20 });
  const literal = name.filter((s) => !s.includes('*'));

  it('any pattern compiles, and a pattern without * matches exactly itself', () => {
    fc.assert(
      fc.property(literal, name, (p, other) => {
        expect(matchToolNameGlob(p, p)).toBe(true);
        expect(matchToolNameGlob(p, other)).toBe(p === other);
      }),
      { numRuns: 300 },
    );
  });

  it('a trailing * matches every extension of the prefix, and only those', () => {
    fc.assert(
      fc.property(literal, name, name, (p, suffix, other) => {
        expect(matchToolNameGlob(`${p}*`, p + suffix)).toBe(true);
        expect(matchToolNameGlob(`${p}*`, other)).toBe(other.startsWith(p));
        expect(matchToolNameGlob(`*${p}`, suffix + p)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  // Small alphabets make overlapping runs (the hard cases for a greedy matcher) common.
  const small = (max: number) => fc.array(fc.constantFrom('a', 'b', '*', '\uD83D', '\uDC0B', '🐋'), { maxLength: max }).map((a) => a.join(''));

  it('agrees with the reference matcher on random globs and names', () => {
    fc.assert(
      fc.property(
        small(12),
        small(16).map((s) => s.replaceAll('*', 'a')),
        (p, name) => {
          expect(matchToolNameGlob(p, name)).toBe(referenceMatch(p, name));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('agrees with the reference when the name is built from the pattern (mostly matches)', () => {
    fc.assert(
      fc.property(
        small(10),
        fc.array(
          small(4).map((s) => s.replaceAll('*', '')),
          { maxLength: 12 },
        ),
        (p, fills) => {
          let i = 0;
          const name = p.replace(/\*/g, () => fills[i++ % Math.max(1, fills.length)] ?? '');
          expect(matchToolNameGlob(p, name)).toBe(referenceMatch(p, name));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the work per match is bounded by 2 × (name + pattern) code points', () => {
    fc.assert(
      fc.property(
        small(30),
        small(60).map((s) => s.replaceAll('*', 'a')),
        (p, name) => {
          const { steps } = compileToolNameGlob(p).testCounted(name);
          expect(steps).toBeLessThanOrEqual(2 * [...name].length + 2 * [...p].length);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
