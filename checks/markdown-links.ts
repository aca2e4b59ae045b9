/**
 * The link targets of a Markdown file, for checking that a published README (or a guide a
 * package ships) links only to files inside its tarball or to absolute URLs. Inline links and
 * images `[text](target "title")`, reference definitions `[id]: target` and HTML
 * `src`/`href` attributes count; text in fenced code blocks and inline code does not.
 * Pure: text in, targets out.
 */

export interface MarkdownLink {
  readonly target: string;
  /** 1-based line of the link. */
  readonly line: number;
}

/** Blank out fenced code blocks and inline code spans, keeping line breaks (and so line numbers). */
function withoutCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return text.replace(/^(\s*)(```|~~~)[^\n]*\n[\s\S]*?^\s*\2[^\n]*$/gm, blank).replace(/(`+)[^`\n]*?\1/g, blank);
}

export function markdownLinks(text: string): MarkdownLink[] {
  const prose = withoutCode(text);
  const out: MarkdownLink[] = [];
  const patterns = [/\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g, /^ {0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)/gm, /\b(?:src|href)="([^"]+)"/g];
  for (const re of patterns) {
    for (const m of prose.matchAll(re)) {
      out.push({ target: m[1]!, line: prose.slice(0, m.index).split('\n').length });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** An absolute URL (any scheme), a `mailto:` or a fragment of the same file. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#');
}

/**
 * Where a relative target points, as a path inside the package (`null` when it climbs out of
 * it): resolved against the folder of `from`, without its `#fragment` or `?query`.
 */
export function resolveInPackage(from: string, target: string): string | null {
  const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
  const parts = path.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}
