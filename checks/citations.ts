/**
 * Citations in the repository's code and docs must point at headings that exist in the
 * repository: `D<n>` at a `### D<n> — …` heading of docs/design-notes.md, `reference §N` at a
 * numbered heading of docs/hooks-reference.md. Documents outside the repository (the upstream
 * contract, decisions, digest, style and architecture files) must not be cited at all.
 * Pure: text in, problems out.
 */

export interface CitationProblem {
  readonly file: string;
  readonly line: number;
  readonly citation: string;
  readonly message: string;
}

export interface CitationTargets {
  /** Decision numbers with a heading in docs/design-notes.md. */
  readonly decisions: ReadonlySet<number>;
  /** Section numbers (`10.2`, `10.2.8`) with a heading in docs/hooks-reference.md. */
  readonly sections: ReadonlySet<string>;
}

/** `### D14 — Revoke…` headings. */
export function decisionHeadings(markdown: string): Set<number> {
  return new Set([...markdown.matchAll(/^#{2,4} D(\d+) [—-] /gm)].map((m) => Number(m[1])));
}

/** `## 10. tool_call_before`, `### 10.2 Fold…`, `#### 10.2.8 …` headings. */
export function sectionHeadings(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]!));
}

/** Files outside the repository that a comment or doc must not cite. */
const EXTERNAL =
  /\b(?:DECISIONS(?:\.md)?|REFERENCE-DIGEST(?:\.md)?|HOOKS\.md|ARCHITECTURE(?:\.md)?|TOOLCHAIN(?:\.md)?|STYLE(?:\.md)?|SURFACES(?:\.md)?|SURFACE-ANCHORS(?:\.md)?|PEERS(?:\.md)?)\b(?=[\s§.,;:)`'"]|$)|\/work\/shared|\.\.\/shared\//g;
const DECISION = /\bD(\d{1,2})\b(?:\s*[–-]\s*D(\d{1,2})\b)?/g;
const SECTION = /§\s*(\d+(?:\.\d+)*)/g;

/** The comment text of a TypeScript / JavaScript / shell line (`//`, `/* … *\/`, ` * …`, `#`), or `null`. */
function commentOf(line: string, inBlock: boolean, shell: boolean): { text: string | null; inBlock: boolean } {
  const t = line.trim();
  if (shell) return { text: t.startsWith('#') ? t : null, inBlock: false };
  if (inBlock) {
    const end = line.indexOf('*/');
    return end === -1 ? { text: line, inBlock: true } : { text: line.slice(0, end), inBlock: false };
  }
  const block = line.indexOf('/*');
  const slash = line.search(/(^|[^:'"`])\/\//);
  if (block !== -1 && (slash === -1 || block < slash)) {
    const end = line.indexOf('*/', block + 2);
    return end === -1 ? { text: line.slice(block), inBlock: true } : { text: line.slice(block, end), inBlock: false };
  }
  if (slash !== -1) return { text: line.slice(slash), inBlock: false };
  return { text: null, inBlock: false };
}

/**
 * Every bad citation in one file. Code files: `D<n>` is checked in comments; `§` and
 * external-file names anywhere (a test title citing a section is a citation too). Markdown:
 * everywhere, except inside fenced code blocks.
 */
export function checkCitations(file: string, text: string, targets: CitationTargets): CitationProblem[] {
  const problems: CitationProblem[] = [];
  const markdown = file.endsWith('.md');
  const shell = file.endsWith('.sh');
  let inBlock = false;
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    const n = i + 1;
    if (markdown && /^\s*```/.test(line)) {
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    let comment: string | null = line;
    if (!markdown) {
      const c = commentOf(line, inBlock, shell);
      inBlock = c.inBlock;
      comment = c.text;
    }
    for (const m of line.matchAll(EXTERNAL)) {
      problems.push({
        file,
        line: n,
        citation: m[0],
        message: `cites \`${m[0]}\`, a document that is not in this repository; cite docs/hooks-reference.md (reference §N) or docs/design-notes.md (D<n>)`,
      });
    }
    for (const m of line.matchAll(SECTION)) {
      const before = line.slice(0, m.index).trimEnd();
      // Inside the reference itself a bare `§N` means its own section.
      const isReference = /\breference$/.test(before) || file.endsWith('hooks-reference.md');
      if (!isReference) {
        problems.push({ file, line: n, citation: m[0], message: `\`${m[0]}\` does not say which document; write \`reference §N\` for a section of docs/hooks-reference.md` });
      } else if (!targets.sections.has(m[1]!)) {
        problems.push({ file, line: n, citation: `reference ${m[0]}`, message: `docs/hooks-reference.md has no section ${m[1]}` });
      }
    }
    if (comment !== null) {
      for (const m of comment.matchAll(DECISION)) {
        for (const d of [m[1], m[2]]) {
          if (d !== undefined && !targets.decisions.has(Number(d))) {
            problems.push({ file, line: n, citation: `D${d}`, message: `docs/design-notes.md has no \`### D${d} — …\` heading` });
          }
        }
      }
    }
  });
  return problems;
}
