import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { matchCondition, type HookCondition } from '@codewhale/hooks-conditions';
import { ourToPeerToolName, PEER_TOOL_NAMES, peerToOurToolName, sameTool, SHELL_TOOL_NAMES } from '@codewhale/hooks-payloads';
import { peerNamesFor, translateToolMatcher, type PeerAgent } from './peer-matcher.js';

const anyOf = (...names: string[]): HookCondition => ({ type: 'any', conditions: names.map((name) => ({ type: 'tool_name', name })) });
const tool = (name: string): HookCondition => ({ type: 'tool_name', name });

/**
 * The peers' own rule, written out independently of the translator: absent, `""` and `*` match
 * everything; a matcher of "exact-list" characters is a list of whole names; anything else is a
 * regular expression searched anywhere in the name. A tool is selected when the matcher selects
 * any name the peer knows it by.
 */
function peerSelects(peer: PeerAgent, matcher: string, ourName: string): boolean {
  const names = new Set([ourToPeerToolName(ourName)]);
  for (const p of PEER_TOOL_NAMES) {
    const ours = peerToOurToolName(p);
    if (ours !== null && sameTool(ours, ourName)) names.add(p);
  }
  // Codex's apply_patch (every file change) answers to `apply_patch`, `Write` and `Edit`.
  if (peer === 'codex' && (ourName === 'write' || ourName === 'edit')) for (const n of ['apply_patch', 'Write', 'Edit']) names.add(n);
  const test = (name: string): boolean => {
    if (matcher === '' || matcher === '*') return true;
    if (peer === 'claude-code' && /^[A-Za-z0-9_\- ,|]*$/.test(matcher)) return matcher.split(/[|,]/).some((n) => n.trim() === name);
    if (peer === 'codex' && /^[A-Za-z0-9_|]*$/.test(matcher)) return matcher.split('|').includes(name);
    return new RegExp(matcher).test(name);
  };
  return [...names].some(test);
}

const selects = (condition: HookCondition | null, name: string): boolean => matchCondition(condition, { event: 'tool_call_before', tool: { name, input: {} } });

/** Spellings that are the peer's only (Codewhale has no tool called `Read`; its `Bash` is the shell). */
const PEER_ONLY = new Set([...PEER_TOOL_NAMES.filter((n) => !(SHELL_TOOL_NAMES as readonly string[]).includes(n)), 'apply_patch']);
const BUILT_IN = ['bash', 'Bash', 'exec_shell', 'read', 'write', 'edit', 'grep', 'list_dir', 'todo_write', 'agent', 'request_user_input', 'web.run'];

const nameChar = fc.constantFrom(...'abcdeilsxBEWLST_-.'.split(''));
const word = fc.array(nameChar, { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''));
/** Names Codewhale can give a tool: built-ins, MCP tools, anything else not spelled like a peer-only name. */
const ourName = fc
  .oneof(
    fc.constantFrom(...BUILT_IN),
    fc.tuple(word, word).map(([s, t]) => `mcp__${s}__${t}`),
    fc.tuple(word, word, word).map(([p, s, t]) => `${p}mcp__${s}__${t}`),
    word,
    // Short names over few letters, so repeated characters (`a__b`) meet `_*` in a matcher.
    fc.array(fc.constantFrom('a', 'b', '_', 'h', 'e'), { minLength: 1, maxLength: 5 }).map((cs) => cs.join('')),
  )
  .filter((n) => !PEER_ONLY.has(n));

/** Matchers the translator can carry: names, alternatives, `.*`, anchors, `c*`, in both peers' forms. */
const fragment = fc.oneof(
  fc.constantFrom(...PEER_TOOL_NAMES, ...BUILT_IN.filter((n) => !n.includes('.')), 'Glob', 'WebFetch', 'mcp__', '__', 'mcp__github__'),
  word.map((w) => w.replace(/\./g, '\\.')),
  fc.constantFrom('.*', '_*', 'h*', 'e*', 'a', 'b', '_'),
);
const alternative = fc.tuple(fc.boolean(), fc.array(fragment, { minLength: 0, maxLength: 4 }), fc.boolean()).map(([start, parts, end]) => `${start ? '^' : ''}${parts.join('')}${end ? '$' : ''}`);
const supportedMatcher = fc.array(alternative, { minLength: 1, maxLength: 4 }).map((alts) => alts.join('|'));
/** Anything at all, including syntax no condition can say. */
const anyMatcher = fc.oneof(supportedMatcher, fc.string({ maxLength: 12 }), fc.stringMatching(/^[A-Za-z|()?+[\].*^$\\-]{0,10}$/));

describe('translateToolMatcher', () => {
  test.each<[string, HookCondition | null]>([
    ['Bash', tool('bash')],
    ['Edit|Write', anyOf('edit', 'write')],
    ['Edit, Write', anyOf('edit', 'write')],
    ['MultiEdit', tool('edit')],
    ['Read|Grep|LS', anyOf('read', 'grep', 'list_dir')],
    ['Task|Agent', tool('agent')],
    ['mcp__github__create_issue', tool('mcp__github__create_issue')],
    ['mcp__github__.*', tool('*mcp__github__*')],
    ['^mcp__github__.*', tool('mcp__github__*')],
    ['^mcp__.*__write.*$', tool('mcp__*__write*')],
    ['mcp__github__*', tool('*mcp__github_*')],
    ['^Bash$', tool('bash')],
    ['*', null],
    ['', null],
    ['.*', null],
    ['^Edit$|', null],
  ])('claude-code %j → %j', (matcher, condition) => {
    const t = translateToolMatcher('claude-code', matcher);
    expect(t).toMatchObject({ ok: true, condition });
  });

  test('an unknown name is kept as written, with a note saying so', () => {
    expect(translateToolMatcher('claude-code', 'Read|Glob')).toEqual({
      ok: true,
      condition: anyOf('read', 'Glob'),
      notes: ['`Glob`: no Codewhale tool goes by that name with the peer; kept as written, it selects only a tool named exactly `Glob`'],
    });
  });

  test("Codex's apply_patch, Write and Edit are every file edit: our write and edit", () => {
    expect(translateToolMatcher('codex', 'apply_patch')).toEqual({ ok: true, condition: anyOf('edit', 'write'), notes: [] });
    expect(translateToolMatcher('codex', 'Write')).toEqual({ ok: true, condition: anyOf('edit', 'write'), notes: [] });
    expect(translateToolMatcher('claude-code', 'Write')).toEqual({ ok: true, condition: tool('write'), notes: [] });
  });

  test('Codex reads `-` and `,` as regular-expression text, Claude Code as part of an exact list', () => {
    expect(translateToolMatcher('codex', 'mcp__my-server__run')).toMatchObject({ ok: true, condition: tool('*mcp__my-server__run*') });
    expect(translateToolMatcher('claude-code', 'mcp__my-server__run')).toMatchObject({ ok: true, condition: tool('mcp__my-server__run') });
  });

  test.each([
    ['^Notebook(Edit)?$', '`(` is regular-expression syntax'],
    ['Bash|[A-Z]+', '`[` is regular-expression syntax'],
    ['Ba.h', '`.` is regular-expression syntax'],
    ['\\w+', '`\\w` is a character class'],
    ['^a_*b$', '`_*` repeats a character'],
    ['^Bash(', 'not a valid regular expression'],
    ['l.*', "would also select Codewhale's `bash`"],
  ])('%j is not carried over: %s', (matcher, reason) => {
    const t = translateToolMatcher('claude-code', matcher);
    expect(t.ok).toBe(false);
    expect(t.ok ? '' : t.reason).toContain(reason);
  });

  test('peerNamesFor: every name the peer knows a tool by', () => {
    expect(peerNamesFor('claude-code', 'edit')).toEqual(['Edit', 'MultiEdit']);
    expect(peerNamesFor('codex', 'edit')).toEqual(['Edit', 'MultiEdit', 'apply_patch', 'Write']);
    expect(peerNamesFor('claude-code', 'exec_shell')).toEqual(['Bash']);
    expect(peerNamesFor('claude-code', 'mcp__a__b')).toEqual(['mcp__a__b']);
  });

  for (const peer of ['claude-code', 'codex'] as const) {
    test(`${peer}: a translated matcher selects exactly the tools the peer's matcher selects`, () => {
      fc.assert(
        fc.property(anyMatcher, fc.array(ourName, { minLength: 1, maxLength: 12 }), (matcher, names) => {
          const t = translateToolMatcher(peer, matcher);
          if (!t.ok) return;
          for (const name of [...names, ...BUILT_IN]) expect(selects(t.condition, name), `${matcher} on ${name}`).toBe(peerSelects(peer, matcher, name));
        }),
        { numRuns: 600 },
      );
    });

    test(`${peer}: the same over a small alphabet, where repeats and wildcards meet`, () => {
      const small = fc.array(fc.constantFrom('a', 'b', '_'), { minLength: 0, maxLength: 5 }).map((cs) => cs.join(''));
      const piece = fc.constantFrom('a', 'b', '_', '_*', 'b*', '.*');
      const alt = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 5 }), fc.boolean()).map(([s, p, e]) => `${s ? '^' : ''}${p.join('')}${e ? '$' : ''}`);
      fc.assert(
        fc.property(
          fc.array(alt, { minLength: 1, maxLength: 3 }).map((a) => a.join('|')),
          fc.array(
            small.filter((n) => n !== ''),
            { minLength: 1, maxLength: 10 },
          ),
          (matcher, names) => {
            const t = translateToolMatcher(peer, matcher);
            if (!t.ok) return;
            for (const name of names) expect(selects(t.condition, name), `${matcher} on ${name}`).toBe(peerSelects(peer, matcher, name));
          },
        ),
        { numRuns: 400 },
      );
    });

    test(`${peer}: names and \`|\` alternatives always translate`, () => {
      const names = fc.array(
        fc.oneof(
          fc.constantFrom(...PEER_TOOL_NAMES),
          word.filter((w) => /^[A-Za-z0-9_]+$/.test(w)),
        ),
        { minLength: 1, maxLength: 4 },
      );
      fc.assert(
        fc.property(names, (list) => {
          expect(translateToolMatcher(peer, list.join('|')).ok).toBe(true);
        }),
      );
    });
  }

  test('wildcard-only regular expressions translate unless they reach a renamed tool', () => {
    fc.assert(
      fc.property(
        fc.tuple(word, word).map(([s, t]) => `^mcp__${s.replace(/\./g, '\\.')}__${t.replace(/\./g, '\\.')}.*`),
        (matcher) => {
          expect(translateToolMatcher('claude-code', matcher).ok).toBe(true);
        },
      ),
    );
  });
});
