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

  it('compiles to an anchored regular expression', () => {
    const re = compileToolNameGlob('mcp__*');
    expect(re.test('mcp__x')).toBe(true);
    expect(re.source.startsWith('^')).toBe(true);
    expect(re.source.endsWith('$')).toBe(true);
  });
});

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
});
