import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { fromPeerToolInput, isAbsolutePath, joinPath, relativeInside, toPeerToolInput } from './peer-tool-input.js';

const WS = '/work/proj';
const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const relPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

describe('paths', () => {
  it('joins a relative path under the workspace, resolving . and ..', () => {
    expect(joinPath(WS, 'src/a.ts')).toBe('/work/proj/src/a.ts');
    expect(joinPath(WS, './src/../b.ts')).toBe('/work/proj/b.ts');
    expect(joinPath(WS, '/etc/passwd')).toBe('/etc/passwd');
    expect(joinPath(WS, '.')).toBe('/work/proj');
    expect(joinPath('/', '..')).toBe('/');
    expect(joinPath('C:\\w\\p', 'a\\b.txt')).toBe('C:\\w\\p\\a\\b.txt');
  });
  it('absolute paths are recognised on both platforms', () => {
    for (const p of ['/a', 'C:\\a', 'c:/a', '\\\\srv\\share']) expect(isAbsolutePath(p)).toBe(true);
    for (const p of ['a', './a', '../a', 'C:a', '']) expect(isAbsolutePath(p)).toBe(false);
  });
  it('relativeInside inverts joinPath for paths inside the workspace, and refuses the rest', () => {
    fc.assert(
      fc.property(relPath, (rel) => {
        expect(relativeInside(WS, joinPath(WS, rel))).toBe(rel);
      }),
    );
    expect(relativeInside(WS, '/work/project/x')).toBeNull();
    expect(relativeInside(WS, '/work')).toBeNull();
    expect(relativeInside(WS, WS)).toBe('.');
  });
});

/** Valid inputs of our built-in tools, as the model writes them. */
const ourInput = fc.oneof(
  fc
    .tuple(fc.constantFrom('bash', 'Bash', 'exec_shell'), fc.record({ command: fc.string({ minLength: 1 }), timeout: fc.integer({ min: 1, max: 600 }), cwd: relPath }, { requiredKeys: ['command'] }))
    .map(([tool, input]) => ({ tool, input })),
  fc.record({ path: relPath, offset: fc.integer({ min: 1 }), limit: fc.integer({ min: 1, max: 10_000 }) }, { requiredKeys: ['path'] }).map((input) => ({ tool: 'read', input })),
  fc.record({ path: relPath, content: fc.string() }).map((input) => ({ tool: 'write', input })),
  fc
    .record({
      path: relPath,
      edits: fc.array(fc.record({ old_text: fc.string({ minLength: 1 }), new_text: fc.string(), replace_all: fc.boolean() }, { requiredKeys: ['old_text', 'new_text'] }), {
        minLength: 1,
        maxLength: 3,
      }),
    })
    .map((input) => ({ tool: 'edit', input })),
  fc.record({ path: relPath }, { requiredKeys: [] }).map((input) => ({ tool: 'list_dir', input })),
  fc.record({ pattern: fc.string({ minLength: 1 }), path: relPath, ignore_case: fc.boolean() }, { requiredKeys: ['pattern'] }).map((input) => ({ tool: 'grep', input })),
  fc.dictionary(fc.string(), fc.jsonValue()).map((input) => ({ tool: 'mcp__srv__do', input })),
);

describe('tool input: ours → peer → ours', () => {
  it('round-trips every valid input of our tools exactly', () => {
    fc.assert(
      fc.property(ourInput, ({ tool, input }) => {
        const peer = toPeerToolInput(tool, input, WS) as Record<string, unknown>;
        expect(fromPeerToolInput(tool, peer, input, WS)).toEqual(input);
      }),
    );
  });

  it('speaks the peer field names: absolute file_path, old_string/new_string, ms timeout, -i', () => {
    expect(toPeerToolInput('read', { path: 'src/a.ts', limit: 5 }, WS)).toEqual({ file_path: '/work/proj/src/a.ts', limit: 5 });
    expect(toPeerToolInput('write', { path: 'a', content: 'x' }, WS)).toEqual({ file_path: '/work/proj/a', content: 'x' });
    expect(toPeerToolInput('edit', { path: 'a', edits: [{ old_text: 'o', new_text: 'n' }] }, WS)).toEqual({ file_path: '/work/proj/a', old_string: 'o', new_string: 'n' });
    expect(
      toPeerToolInput(
        'edit',
        {
          path: 'a',
          edits: [
            { old_text: 'o', new_text: 'n' },
            { old_text: 'p', new_text: 'q', replace_all: true },
          ],
        },
        WS,
      ),
    ).toEqual({
      file_path: '/work/proj/a',
      edits: [
        { old_string: 'o', new_string: 'n' },
        { old_string: 'p', new_string: 'q', replace_all: true },
      ],
    });
    expect(toPeerToolInput('bash', { command: 'ls', timeout: 5 }, WS)).toEqual({ command: 'ls', timeout: 5000 });
    expect(toPeerToolInput('grep', { pattern: 'x', path: 'src', ignore_case: true }, WS)).toEqual({ pattern: 'x', path: '/work/proj/src', '-i': true });
    expect(toPeerToolInput('list_dir', { path: 'src' }, WS)).toEqual({ path: '/work/proj/src' });
    expect(toPeerToolInput('mcp__a__b', { path: 'kept' }, WS)).toEqual({ path: 'kept' });
    expect(toPeerToolInput('read', 'not an object', WS)).toBe('not an object');
  });

  it('restores an unchanged value exactly, however the model spelled it', () => {
    const original = { path: './src/../a.txt', content: 'x' };
    const peer = toPeerToolInput('write', original, WS) as Record<string, unknown>;
    expect(peer['file_path']).toBe('/work/proj/a.txt');
    expect(fromPeerToolInput('write', { ...peer, content: 'y' }, original, WS)).toEqual({ path: './src/../a.txt', content: 'y' });
    expect(fromPeerToolInput('bash', { command: 'ls', timeout: 1500 }, { command: 'ls', timeout: 1.5 }, WS)).toEqual({ command: 'ls', timeout: 1.5 });
  });

  it('maps a changed peer rewrite back: paths made relative when inside, peer-only Bash fields dropped, unknown fields kept for validation', () => {
    expect(fromPeerToolInput('write', { file_path: '/work/proj/other.txt', content: 'y' }, { path: 'a', content: 'x' }, WS)).toEqual({ path: 'other.txt', content: 'y' });
    expect(fromPeerToolInput('write', { file_path: '/etc/x', content: 'y' }, { path: 'a', content: 'x' }, WS)).toEqual({ path: '/etc/x', content: 'y' });
    expect(fromPeerToolInput('bash', { command: 'ls -la', description: 'list', run_in_background: false, timeout: 1500 }, { command: 'ls' }, WS)).toEqual({ command: 'ls -la', timeout: 2 });
    expect(fromPeerToolInput('edit', { file_path: '/work/proj/a', old_string: 'o', new_string: 'N' }, { path: 'a', edits: [{ old_text: 'o', new_text: 'n' }] }, WS)).toEqual({
      path: 'a',
      edits: [{ old_text: 'o', new_text: 'N' }],
    });
    expect(fromPeerToolInput('read', { file_path: '/work/proj/a', bogus: 1 }, { path: 'a' }, WS)).toEqual({ path: 'a', bogus: 1 });
  });

  it('a rewritten Bash timeout in ms becomes whole seconds, at least 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (ms) => {
        const back = fromPeerToolInput('Bash', { command: 'x', timeout: ms }, { command: 'x', timeout: 7 }, WS);
        if (ms === 7000) expect(back['timeout']).toBe(7);
        else expect(back['timeout']).toBe(Math.max(1, Math.ceil(ms / 1000)));
      }),
    );
  });
});
