/**
 * TypeScript examples in package READMEs, as the consumer check runs them.
 *
 * - Every ```ts (or ```typescript) block is an example: it must compile and run as written.
 * - `console.log(…); // text` — the line(s) that call prints must read `text` (compared with
 *   all whitespace removed, so an object may be written on one line).
 * - A block fenced ```text output right after the example is the whole of what it prints.
 */
export interface ReadmeExample {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
  /** The expected stdout of the whole example, if an `output` block follows it. */
  readonly output: string | null;
  /** `// text` after each `console.log(…)` line, in order. */
  readonly expectations: readonly string[];
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)?\s*(.*)$/;

interface Block {
  readonly line: number;
  readonly lang: string;
  readonly meta: string;
  readonly body: string;
}

function blocks(markdown: string): Block[] {
  const lines = markdown.split(/\r?\n/);
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]!);
    if (!m) continue;
    const [, indent, fence, lang = '', meta = ''] = m;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim().startsWith(fence!) && l.trim().replace(/[`~]/g, '') === '') break;
      body.push(indent && l.startsWith(indent) ? l.slice(indent.length) : l);
    }
    out.push({ line: i + 1, lang: lang.toLowerCase(), meta: meta.trim(), body: body.join('\n') });
    i = j;
  }
  return out;
}

const LOG_LINE = /^\s*console\.log\(.*\);\s*\/\/\s?(.*)$/;

export function readmeExamples(markdown: string): ReadmeExample[] {
  const all = blocks(markdown);
  const out: ReadmeExample[] = [];
  all.forEach((b, i) => {
    if (b.lang !== 'ts' && b.lang !== 'typescript') return;
    const next = all[i + 1];
    const output = next?.meta.split(/\s+/).includes('output') ? next.body : null;
    const expectations: string[] = [];
    for (const l of b.body.split('\n')) {
      const m = LOG_LINE.exec(l);
      if (m) expectations.push(m[1]!);
    }
    out.push({ line: b.line, code: b.body, output, expectations });
  });
  return out;
}

/** Whitespace-insensitive comparison of printed text with its expectation. */
export const sameText = (a: string, b: string): boolean => a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
