import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Markdown, safeHref } from '../src/markdown.js';

describe('links', () => {
  it('are clickable only for http, https and mailto', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>', 'vbscript:x', '/relative', '']) expect(safeHref(bad)).toBeNull();
  });

  it('never yield a scheme other than http, https or mailto', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const h = safeHref(s);
        if (h !== null) expect(/^(https?:|mailto:)/.test(h)).toBe(true);
      }),
    );
  });
});

// The renderer builds elements (never an HTML string): the element tree is walked for the tags
// and link targets it holds.
function tags(node: unknown, out: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) tags(n, out);
    return out;
  }
  const v = node as { type?: unknown; props?: { children?: unknown; href?: unknown } };
  if (typeof v.type === 'string') out.push(v.type === 'a' ? `a:${String(v.props?.href)}` : v.type);
  if (typeof v.type === 'function') tags((v.type as (p: unknown) => unknown)(v.props), out);
  tags(v.props?.children, out);
  return out;
}

describe('Markdown from the model', () => {
  it('becomes elements for Markdown, and raw HTML stays text', () => {
    const t = tags(Markdown({ text: '**bold** `x` <img src=x onerror=alert(1)> <script>alert(1)</script> [a](javascript:alert(1)) [b](https://e.x)\n\n```\ncode\n```' }));
    expect(t).toContain('strong');
    expect(t).toContain('code');
    expect(t).toContain('pre');
    expect(t).toContain('a:https://e.x/');
    expect(t.filter((x) => x === 'img' || x === 'script' || x.startsWith('a:javascript'))).toEqual([]);
  });

  it('never produces an element outside the safe set, whatever the text', () => {
    const allowed = new Set([
      'div',
      'p',
      'span',
      'strong',
      'em',
      'del',
      'code',
      'pre',
      'br',
      'hr',
      'h3',
      'h4',
      'h5',
      'h6',
      'ul',
      'ol',
      'li',
      'blockquote',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
    ]);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.constantFrom('', '<img src=x>', '<a href="javascript:x">y</a>', '[l](javascript:x)', '![i](http://x/y.png)', '<iframe>', '| a |\n|---|\n| <b> |'),
        (s, extra) => {
          for (const tag of tags(Markdown({ text: s + extra }))) {
            if (tag.startsWith('a:')) expect(/^a:(https?:|mailto:)/.test(tag), tag).toBe(true);
            else expect(allowed.has(tag), tag).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
