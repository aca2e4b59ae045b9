import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWithin, resolveInWorkspace } from './workspace-path.js';

// root/
//   ws/                 the workspace
//     a/b/
//     ..notes.txt  ...  .hidden/
//     link_in  -> ws/a            (a symlink that stays inside)
//     link_out -> root/outside    (a symlink out)
//   outside/
//     link_back -> ws/a           (a symlink back in)
const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-wspath-')));
const ws = join(root, 'ws');
const outside = join(root, 'outside');
mkdirSync(join(ws, 'a', 'b'), { recursive: true });
mkdirSync(join(ws, '.hidden'), { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(ws, '..notes.txt'), 'notes');
writeFileSync(join(ws, '...'), 'dots');
symlinkSync(join(ws, 'a'), join(ws, 'link_in'));
symlinkSync(outside, join(ws, 'link_out'));
symlinkSync(join(ws, 'a'), join(outside, 'link_back'));
const LINKS = new Map<string, string>([
  [join(ws, 'link_in'), join(ws, 'a')],
  [join(ws, 'link_out'), outside],
  [join(outside, 'link_back'), join(ws, 'a')],
]);

/**
 * The model: normalise `.`/`..` lexically (as the tool does: the model's path is a string,
 * not a walk), then follow the known symlinks component by component.
 */
function modelResolve(start: readonly string[], segments: readonly string[]): string {
  const lexical: string[] = [...start];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (lexical.length) lexical.pop();
    } else lexical.push(s);
  }
  let cur = '';
  for (const c of lexical) {
    cur = `${cur}/${c}`;
    const target = LINKS.get(cur);
    if (target) cur = target;
  }
  return cur || '/';
}

const components = (p: string): string[] => p.split('/').filter(Boolean);

describe('resolveInWorkspace', () => {
  it('a name that starts with `..` is inside (a segment test, not a prefix test)', () => {
    expect(resolveInWorkspace(ws, '..notes.txt')).toBe(join(ws, '..notes.txt'));
    expect(resolveInWorkspace(ws, '...')).toBe(join(ws, '...'));
    expect(resolveInWorkspace(ws, '..new-file')).toBe(join(ws, '..new-file'));
    expect(resolveInWorkspace(ws, 'a/../..notes.txt')).toBe(join(ws, '..notes.txt'));
  });

  it('refuses `..`, outside absolute paths and symlinks out; follows symlinks in', () => {
    for (const p of ['..', '../x', '../ws2', 'a/../../x', '/etc/passwd', 'link_out', 'link_out/new.txt', join(root, 'wsx')]) {
      expect(() => resolveInWorkspace(ws, p), p).toThrow(/outside the workspace/);
    }
    expect(resolveInWorkspace(ws, 'link_in/b')).toBe(join(ws, 'a', 'b'));
    expect(resolveInWorkspace(ws, join(outside, 'link_back', 'b'))).toBe(join(ws, 'a', 'b'));
    expect(resolveInWorkspace(ws, 'link_out/link_back')).toBe(join(ws, 'a'));
  });

  it('isWithin compares path segments', () => {
    expect(isWithin('/w', '/w')).toBe(true);
    expect(isWithin('/w', '/w/..x')).toBe(true);
    expect(isWithin('/w', '/w/x/..')).toBe(true);
    expect(isWithin('/w', '/wx')).toBe(false);
    expect(isWithin('/w', '/')).toBe(false);
    expect(isWithin('/w', '/w/../x')).toBe(false);
  });
});

describe('properties', () => {
  const segment = fc.constantFrom('.', '..', 'a', 'b', '.hidden', '..notes.txt', '...', '..x', '.x.', 'link_in', 'link_out', 'link_back', 'missing', 'ws', 'outside');
  const segments = fc.array(segment, { maxLength: 8 });

  const check = (path: string, start: readonly string[], segs: readonly string[]): void => {
    const expected = modelResolve(start, segs);
    const inside = expected === ws || expected.startsWith(`${ws}/`);
    if (inside) expect(resolveInWorkspace(ws, path), path).toBe(expected);
    else expect(() => resolveInWorkspace(ws, path), path).toThrow(/outside the workspace/);
  };

  it('a relative path resolves inside exactly when the model says so, to the same place', () => {
    fc.assert(
      fc.property(segments, (segs) => check(segs.join('/') || '.', components(ws), segs)),
      { numRuns: 1500 },
    );
  });

  it('an absolute path (from the root above the workspace) is judged the same way', () => {
    fc.assert(
      fc.property(segments, (segs) => check(`${root}/${segs.join('/')}`, components(root), segs)),
      { numRuns: 1000 },
    );
  });
});
