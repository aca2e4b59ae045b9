import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_CATALOGUE } from '../packages/hooks-payloads/src/events.js';
import { checkCitations, decisionHeadings, sectionHeadings, type CitationTargets } from './citations.js';

const root = join(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage', '.git']);

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry)) continue;
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.(?:tsx?|mjs|sh|md)$/.test(entry)) out.push(p);
  }
  return out;
}

const targets: CitationTargets = {
  decisions: decisionHeadings(readFileSync(join(root, 'docs/design-notes.md'), 'utf8')),
  sections: sectionHeadings(readFileSync(join(root, 'docs/hooks-reference.md'), 'utf8')),
};

describe('citations', () => {
  it('every D<n> and reference § cited in the repository has a heading, and no outside document is cited', () => {
    const scanned = [...['packages', 'checks', 'bench', 'scripts', 'docs', '.changeset'].flatMap((d) => files(join(root, d))), join(root, 'README.md')].filter(
      (f) => !f.endsWith(join('checks', 'citations.test.ts')) && !f.endsWith(join('checks', 'citations.ts')),
    );
    expect(scanned.length).toBeGreaterThan(100);
    const problems = scanned.flatMap((f) => checkCitations(relative(root, f), readFileSync(f, 'utf8'), targets));
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([]);
  });

  it('the records exist: thirty decisions, and the sections the code relies on', () => {
    for (let d = 1; d <= 30; d++) expect(targets.decisions.has(d)).toBe(true);
    for (const s of ['0', '1.13', '2', '8.2', '9.2', '10.1', '10.2', '10.2.8', '11.4', '12.2', '13.1', '13.2', '18.3', '18.4', '21']) expect(targets.sections.has(s)).toBe(true);
  });

  it('the reference documents every event and every environment variable of the catalogue', () => {
    const reference = readFileSync(join(root, 'docs/hooks-reference.md'), 'utf8');
    const events = Object.values(HOOK_EVENT_CATALOGUE);
    expect(events).toHaveLength(15);
    for (const e of events) {
      expect(reference).toMatch(new RegExp(`^\\| \\d+ \\| \`${e.name}\` \\|`, 'm'));
      for (const v of e.env) expect(reference).toMatch(new RegExp(`^\\| \`${v}\` \\|`, 'm'));
    }
  });

  describe('checkCitations', () => {
    const t: CitationTargets = { decisions: new Set([8, 11, 14]), sections: new Set(['10', '10.2']) };
    const check = (file: string, text: string) => checkCitations(file, text, t).map((p) => [p.line, p.citation]);

    it('accepts citations of existing headings, in comments, ranges and docs', () => {
      expect(check('a.ts', '// per entry (D8)\n/** D11–D14 */\nconst x = 1; // reference §10.2\n')).toEqual([]);
      expect(check('a.md', 'See D8 and reference §10.\n')).toEqual([]);
    });
    it('reports a missing decision or section, and which line', () => {
      expect(check('a.ts', 'const a = 1;\n// D9 says\n/*\n * reference §10.3\n */\n')).toEqual([
        [2, 'D9'],
        [4, 'reference §10.3'],
      ]);
      expect(check('a.ts', '/** D11–D13 */')).toEqual([[1, 'D13']]);
    });
    it('reports a § without a document and any outside document, in code strings too', () => {
      expect(check('a.test.ts', "describe('fold (digest §10.2)', () => {});\n// STYLE §7\n// see HOOKS.md\n")).toEqual([
        [1, '§10.2'],
        [2, 'STYLE'],
        [2, '§7'],
        [3, 'HOOKS.md'],
      ]);
      expect(check('a.md', 'The contract is `../../shared/spec/HOOKS.md`.\n')).toEqual([
        [1, '../shared/'],
        [1, 'HOOKS.md'],
      ]);
    });
    it('D<n> in code (not comments) and in fenced blocks is not a citation', () => {
      expect(check('a.ts', "const key = 'D9';\n")).toEqual([]);
      expect(check('a.md', '```\nD99\n```\n')).toEqual([]);
      expect(check('a.sh', 'echo D99\n# D8 ok\n')).toEqual([]);
    });
  });
});
