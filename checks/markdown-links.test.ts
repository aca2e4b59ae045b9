import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isExternal, markdownLinks, resolveInPackage } from './markdown-links.js';

describe('markdownLinks', () => {
  it('finds inline links, images, reference definitions and HTML attributes, with their lines', () => {
    const text = [
      'See [the guide](../../docs/hooks-guide.md#events) and ![shot](docs/a.png "A shot").',
      '[ref]: src/index.ts',
      '<img src="docs/b.png"> <a href="https://example.com/x">x</a>',
      'A [link with <angle>](<schema/x.json>).',
    ].join('\n');
    expect(markdownLinks(text)).toEqual([
      { target: '../../docs/hooks-guide.md#events', line: 1 },
      { target: 'docs/a.png', line: 1 },
      { target: 'src/index.ts', line: 2 },
      { target: 'docs/b.png', line: 3 },
      { target: 'https://example.com/x', line: 3 },
      { target: 'schema/x.json', line: 4 },
    ]);
  });

  it('ignores fenced code blocks and inline code, keeping later line numbers right', () => {
    const text = ['```ts', 'const x = a[0](b); // [x](not/a/link)', '```', 'Use `[x](nope)` or [yes](real.md).'].join('\n');
    expect(markdownLinks(text)).toEqual([{ target: 'real.md', line: 4 }]);
  });

  it('finds every link put into arbitrary prose (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9 ,.]{0,20}$/);
    const target = fc.stringMatching(/^[a-z0-9_./-]{1,30}$/).filter((t) => !t.startsWith('.') || t.startsWith('../') || t.startsWith('./'));
    fc.assert(
      fc.property(fc.array(fc.tuple(word, word, target), { minLength: 1, maxLength: 6 }), (parts) => {
        const text = parts.map(([before, label, t]) => `${before} [${label}](${t})`).join('\n');
        expect(markdownLinks(text).map((l) => l.target)).toEqual(parts.map(([, , t]) => t));
      }),
    );
  });
});

describe('resolveInPackage', () => {
  it('resolves against the linking file, drops fragments and queries, refuses climbing out', () => {
    expect(resolveInPackage('README.md', 'schema/stdin/x.json#top')).toBe('schema/stdin/x.json');
    expect(resolveInPackage('docs/hooks-guide.md', 'recipes/')).toBe('docs/recipes');
    expect(resolveInPackage('docs/hooks-guide.md', '../README.md?x=1')).toBe('README.md');
    expect(resolveInPackage('README.md', '../../docs/hooks-reference.md')).toBeNull();
    expect(resolveInPackage('README.md', '../tui')).toBeNull();
    expect(resolveInPackage('README.md', 'a%20b.md')).toBe('a b.md');
  });

  it('tells absolute URLs and fragments from paths', () => {
    for (const t of ['https://x.dev/a', 'mailto:a@b.c', '#events', 'HTTP://X']) expect(isExternal(t), t).toBe(true);
    for (const t of ['docs/a.md', '../x', 'schema/', 'a:b/c'.replace(':', '')]) expect(isExternal(t), t).toBe(false);
  });
});
