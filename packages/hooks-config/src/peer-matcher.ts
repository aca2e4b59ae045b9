import { compileToolNameGlob, toolNameMatches, type HookCondition } from '@codewhale/hooks-conditions';
import { isShellToolName, ourToPeerToolName, PEER_TOOL_NAMES, peerToOurToolName, sameTool } from '@codewhale/hooks-payloads';

/** The agents whose hook settings `hooks import` reads. */
export type PeerAgent = 'claude-code' | 'codex';

/**
 * How a peer reads a `matcher` (both agents decide by the characters it contains):
 * - absent, `""` or `"*"`: every name;
 * - only "exact-list" characters: a list of exact names separated by `|` (Claude Code also
 *   accepts `,` and spaces around names, and `-` inside them; Codex only letters, digits, `_`);
 * - anything else: a regular expression, searched anywhere in the name (unanchored).
 */
const EXACT_LIST: Readonly<Record<PeerAgent, RegExp>> = {
  'claude-code': /^[A-Za-z0-9_\- ,|]*$/,
  codex: /^[A-Za-z0-9_|]*$/,
};

/**
 * Codex's own names that answer for one of ours: its `apply_patch` makes every file change, and
 * a Codex matcher selects it as `apply_patch`, `Write` or `Edit`; so do our `write` and `edit`.
 */
const CODEX_FILE_EDIT = ['apply_patch', 'Write', 'Edit'];
const CODEX_ALIASES: Readonly<Record<string, readonly string[]>> = { write: CODEX_FILE_EDIT, edit: CODEX_FILE_EDIT };

/**
 * Every name a peer matcher is tested against for one of our tools: the peer's spelling of it,
 * every other peer name for the same tool (`MultiEdit` is our `edit` too), and for Codex its own
 * aliases. An MCP tool, and any tool the peer has no name for, is seen under our name.
 */
export function peerNamesFor(peer: PeerAgent, ourName: string): readonly string[] {
  const names = new Set<string>([ourToPeerToolName(ourName)]);
  for (const p of PEER_TOOL_NAMES) {
    const ours = peerToOurToolName(p);
    if (ours !== null && sameTool(ours, ourName)) names.add(p);
  }
  if (peer === 'codex') for (const alias of CODEX_ALIASES[ourName] ?? []) names.add(alias);
  return [...names];
}

/**
 * Our tool names the peer sees under another spelling: each needs its own `tool_name` in a
 * translated condition, and a wildcard must not select one the peer's matcher would not. The
 * shell tool's spellings are one tool here (a `tool_name` condition naming one matches all).
 */
function renamedTools(): readonly string[] {
  const names = new Set<string>();
  for (const p of PEER_TOOL_NAMES) {
    const ours = peerToOurToolName(p);
    if (ours !== null) names.add(ours);
  }
  return [...names];
}

/** The whole matcher selects every name (absent, empty, `*`). */
export function isMatchAll(matcher: string | null | undefined): boolean {
  return matcher === null || matcher === undefined || matcher === '' || matcher === '*';
}

export type MatcherReading =
  /** Every name. */
  | { readonly kind: 'all' }
  /** Exact names (the peer compares whole names). */
  | { readonly kind: 'exact'; readonly names: readonly string[] }
  /** A regular expression, searched anywhere in the name. */
  | { readonly kind: 'regex'; readonly source: string };

/** How `peer` reads `matcher`, by the same character rule the peer applies. */
export function readMatcher(peer: PeerAgent, matcher: string | null | undefined): MatcherReading {
  if (isMatchAll(matcher)) return { kind: 'all' };
  const m = matcher as string;
  if (EXACT_LIST[peer].test(m)) {
    const names = peer === 'codex' ? m.split('|') : m.split(/[|,]/).map((s) => s.trim());
    return { kind: 'exact', names };
  }
  return { kind: 'regex', source: m };
}

type Atom = { readonly kind: 'any' } | { readonly kind: 'char'; readonly ch: string } | { readonly kind: 'star'; readonly ch: string };

const REGEX_SPECIAL = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

/** Split a regular expression at its top-level `|` (escaped `\|` stays). */
function splitAlternatives(source: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\' && i + 1 < source.length) {
      cur += ch + source[i + 1]!;
      i++;
    } else if (ch === '|') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * One alternative of a regular expression as a `tool_name` glob that selects exactly the names
 * the alternative finds (searched anywhere, so an edge without `^` / `$` is a `*`), or why it
 * cannot be one. Supported: literal characters, escaped punctuation, `.*`, `^`, `$`, and `c*`
 * where it can match nothing next to a `.*` or an open edge. Everything else (classes, groups,
 * `?`, `+`, `{n}`, a lone `.`, `\d`…) has no glob form.
 */
function alternativeToGlob(alt: string): { glob: string } | { problem: string } {
  let s = alt;
  const anchoredStart = s.startsWith('^');
  if (anchoredStart) s = s.slice(1);
  let anchoredEnd = false;
  if (s.endsWith('$') && !/(^|[^\\])(\\\\)*\\\$$/.test(s)) {
    anchoredEnd = true;
    s = s.slice(0, -1);
  }
  const atoms: Atom[] = anchoredStart ? [] : [{ kind: 'any' }];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const next = s[i + 1];
    if (ch === '.' && next === '*') {
      atoms.push({ kind: 'any' });
      i++;
      continue;
    }
    let literal: string;
    if (ch === '\\') {
      if (next === undefined) return { problem: 'it ends in a lone `\\`' };
      if (/[A-Za-z0-9]/.test(next)) return { problem: `\`\\${next}\` is a character class or escape` };
      literal = next;
      i++;
    } else if (REGEX_SPECIAL.has(ch)) {
      return { problem: `\`${ch}\` is regular-expression syntax beyond \`|\` alternatives and \`.*\` wildcards` };
    } else literal = ch;
    if (literal === '*') return { problem: 'a literal `*` cannot be written in a Codewhale tool-name glob' };
    if (s[i + 1] === '*') {
      atoms.push({ kind: 'star', ch: literal });
      i++;
    } else atoms.push({ kind: 'char', ch: literal });
  }
  if (!anchoredEnd) atoms.push({ kind: 'any' });
  // `c*` beside `.*` (or an open edge) can always match nothing: drop it, until none is left there.
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < atoms.length; i++) {
      if (atoms[i]!.kind === 'star' && (atoms[i - 1]?.kind === 'any' || atoms[i + 1]?.kind === 'any')) {
        atoms.splice(i, 1);
        changed = true;
        break;
      }
    }
  }
  const star = atoms.find((a) => a.kind === 'star');
  if (star) return { problem: `\`${star.kind === 'star' ? star.ch : ''}*\` repeats a character, which a glob cannot say` };
  const glob = atoms.map((a) => (a.kind === 'any' ? '*' : a.kind === 'char' ? a.ch : '')).join('');
  return { glob: glob.replace(/\*+/g, '*') };
}

export type MatcherTranslation =
  | {
      readonly ok: true;
      /** `null`: every tool (no condition). */
      readonly condition: HookCondition | null;
      /** What the reader should know (a name no Codewhale tool has, …). */
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

const toolName = (name: string): HookCondition => ({ type: 'tool_name', name });

function validRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/**
 * Translate a peer's tool `matcher` into a Codewhale condition that selects exactly the tools
 * the peer's matcher would select (a tool is selected when the matcher matches any name the peer
 * knows it by, see {@link peerNamesFor}), or say why it cannot. Exact names and `|` alternatives
 * translate; so do regular expressions made of literal text, `.*`, `^` and `$` (as globs).
 * Nothing else does: a Codewhale condition has no classes, optional parts or negation.
 */
export function translateToolMatcher(peer: PeerAgent, matcher: string | null | undefined): MatcherTranslation {
  const reading = readMatcher(peer, matcher);
  if (reading.kind === 'all') return { ok: true, condition: null, notes: [] };

  let globs: string[];
  if (reading.kind === 'exact') {
    globs = [...reading.names];
  } else {
    globs = [];
    for (const alt of splitAlternatives(reading.source)) {
      const r = alternativeToGlob(alt);
      if ('problem' in r)
        return { ok: false, reason: validRegex(reading.source) ? `the matcher is a regular expression Codewhale cannot carry over: ${r.problem}` : 'the matcher is not a valid regular expression' };
      globs.push(r.glob);
    }
  }
  // `""` selects only a tool with an empty name, which no tool has.
  globs = globs.filter((g) => g !== '');
  if (globs.includes('*')) return { ok: true, condition: null, notes: [] };

  const renamed = renamedTools();
  const peerSpellings = new Set([...PEER_TOOL_NAMES, ...(peer === 'codex' ? Object.values(CODEX_ALIASES).flat() : [])]);
  const parts: HookCondition[] = [];
  const notes: string[] = [];
  const add = (c: HookCondition): void => {
    if (!parts.some((p) => p.type === 'tool_name' && c.type === 'tool_name' && p.name === c.name)) parts.push(c);
  };
  for (const glob of globs) {
    const compiled = compileToolNameGlob(glob);
    for (const ours of renamed) if (peerNamesFor(peer, ours).some((n) => compiled.test(n))) add(toolName(ours));
    const literal = !glob.includes('*');
    // A peer spelling (`Edit`) is already carried by our name above; any other name is kept as written.
    if (literal && (peerSpellings.has(glob) || renamed.includes(glob) || isShellToolName(glob))) continue;
    if (literal && !glob.startsWith('mcp__')) notes.push(`\`${glob}\`: no Codewhale tool goes by that name with the peer; kept as written, it selects only a tool named exactly \`${glob}\``);
    add(toolName(glob));
  }
  const condition: HookCondition | null = parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { type: 'any', conditions: parts };
  if (condition === null) return { ok: false, reason: 'the matcher selects no tool' };

  // A wildcard can also reach one of our renamed tools that the peer knows by another name.
  for (const ours of renamed) {
    const wanted = globs.some((g) => peerNamesFor(peer, ours).some((n) => compileToolNameGlob(g).test(n)));
    const selected = parts.some((p) => p.type === 'tool_name' && toolNameMatches(p.name, ours));
    if (selected && !wanted) {
      return {
        ok: false,
        reason: `the matcher would also select Codewhale's \`${ours}\`, which the peer calls \`${ourToPeerToolName(ours)}\` and does not select; a Codewhale condition cannot leave it out`,
      };
    }
  }
  return { ok: true, condition, notes };
}
