import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { appendHookEntries, type HooksFileShape } from './append-hook-entries.js';
import { buildHookSet } from './build-hook-set.js';
import { importPeerHooks, type ImportedHookEntry, type PeerHooksFile } from './import-peer-hooks.js';
import { parseProjectHooks } from './parse-project-hooks.js';
import { parseUserConfig } from './parse-user-config.js';

/** A realistic Claude Code setup: user settings, a shared project file and a personal local one. */
const USER: PeerHooksFile = {
  file: '~/.claude/settings.json',
  scope: 'user',
  document: {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    permissions: { allow: ['Bash(npm run test:*)'] },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 ~/.claude/hooks/block-rm.py', timeout: 10 }] },
        { matcher: 'mcp__github__.*', hooks: [{ type: 'command', command: '~/.claude/hooks/gh-audit.sh' }] },
      ],
      Notification: [{ hooks: [{ type: 'command', command: "notify-send 'Claude Code' 'needs you'" }] }],
      PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: 'echo compacting' }] }],
    },
  },
};
const PROJECT: PeerHooksFile = {
  file: '.claude/settings.json',
  scope: 'project',
  document: {
    hooks: {
      PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh', timeout: 30, statusMessage: 'Formatting…' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/context.js' }] }],
      Stop: [{ hooks: [{ type: 'prompt', prompt: 'Are all tasks done? $ARGUMENTS' }] }],
      PreToolUse: [{ matcher: '^Notebook(Edit)?$', hooks: [{ type: 'command', command: './nb-guard.sh' }] }],
    },
  },
};
const LOCAL: PeerHooksFile = {
  file: '.claude/settings.local.json',
  scope: 'project',
  document: {
    hooks: {
      PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: '~/bin/log-tool.sh', async: true }] }],
      SessionStart: [{ matcher: 'startup|resume', hooks: [{ type: 'command', command: 'cat .claude/context.md', timeout: 2.5 }] }],
    },
  },
};

const POST_NOTE = '`tool_call_after` only observes: feedback for the model (exit 2, `decision: "block"`, `additionalContext`) is reported, not passed on';

const at = (file: string, event: string | null, matcher: string | null, group: number | null, hook: number | null) => ({ file, event, matcher, group, hook });

describe('importPeerHooks', () => {
  test('a realistic Claude Code setup: every hook carried over or reported', () => {
    const r = importPeerHooks('claude-code', [USER, PROJECT, LOCAL]);
    expect(r.entries).toEqual([
      {
        scope: 'user',
        origin: at(USER.file, 'PreToolUse', 'Bash', 0, 0),
        entry: {
          name: 'claude-code: PreToolUse Bash',
          event: 'tool_call_before',
          protocol: 'claude-code',
          command: 'python3 ~/.claude/hooks/block-rm.py',
          timeout_secs: 10,
          condition: { type: 'tool_name', name: 'bash' },
        },
        notes: [],
      },
      {
        scope: 'user',
        origin: at(USER.file, 'PreToolUse', 'mcp__github__.*', 1, 0),
        entry: {
          name: 'claude-code: PreToolUse mcp__github__.*',
          event: 'tool_call_before',
          protocol: 'claude-code',
          command: '~/.claude/hooks/gh-audit.sh',
          timeout_secs: 600,
          condition: { type: 'tool_name', name: '*mcp__github__*' },
        },
        notes: [],
      },
      {
        scope: 'user',
        origin: at(USER.file, 'Notification', null, 0, 0),
        entry: { name: 'claude-code: Notification', event: 'waiting_for_user', protocol: 'claude-code', command: "notify-send 'Claude Code' 'needs you'", timeout_secs: 600 },
        notes: [],
      },
      {
        scope: 'project',
        origin: at(PROJECT.file, 'PostToolUse', 'Edit|Write', 0, 0),
        entry: {
          name: 'claude-code: PostToolUse Edit|Write',
          event: 'tool_call_after',
          protocol: 'claude-code',
          command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh',
          timeout_secs: 30,
          condition: {
            type: 'any',
            conditions: [
              { type: 'tool_name', name: 'edit' },
              { type: 'tool_name', name: 'write' },
            ],
          },
        },
        notes: [POST_NOTE, '`statusMessage` is not carried over: Codewhale shows the hook\u2019s name instead'],
      },
      {
        scope: 'project',
        origin: at(PROJECT.file, 'UserPromptSubmit', null, 0, 0),
        entry: { name: 'claude-code: UserPromptSubmit', event: 'message_submit', protocol: 'claude-code', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/context.js', timeout_secs: 600 },
        notes: [],
      },
      {
        scope: 'project',
        origin: at(LOCAL.file, 'PostToolUse', '*', 0, 0),
        entry: { name: 'claude-code: PostToolUse', event: 'tool_call_after', protocol: 'claude-code', command: '~/bin/log-tool.sh', timeout_secs: 600, background: true },
        notes: [POST_NOTE, '`async`: runs in the background (`background = true`), so it cannot steer'],
      },
      {
        scope: 'project',
        origin: at(LOCAL.file, 'SessionStart', 'startup|resume', 0, 0),
        entry: { name: 'claude-code: SessionStart startup|resume', event: 'session_start', protocol: 'claude-code', command: 'cat .claude/context.md', timeout_secs: 3 },
        notes: [
          '`session_start` only observes: context the hook prints is not given to the model',
          'the matcher also selects `resume`, which Codewhale has no counterpart for: the hook runs when a session starts',
          '`timeout` 2.5 s rounded up to whole seconds: 3 s',
        ],
      },
    ]);
    expect(r.skipped).toEqual([
      { origin: at(USER.file, 'PreCompact', 'auto', 0, 0), reason: "Claude Code's `PreCompact` has no Codewhale counterpart" },
      { origin: at(PROJECT.file, 'Stop', null, 0, 0), reason: 'a `prompt` hook is not a command; Codewhale hooks run commands' },
      {
        origin: at(PROJECT.file, 'PreToolUse', '^Notebook(Edit)?$', 0, 0),
        reason: 'the matcher is a regular expression Codewhale cannot carry over: `(` is regular-expression syntax beyond `|` alternatives and `.*` wildcards',
      },
    ]);
  });

  test('malformed parts are reported one by one and never take the rest down', () => {
    const r = importPeerHooks('claude-code', [
      { file: 'a.json', scope: 'user', document: ['not', 'an', 'object'] },
      { file: 'b.json', scope: 'user', document: { hooks: 'PreToolUse' } },
      {
        file: 'c.json',
        scope: 'user',
        document: {
          hooks: {
            PreToolUse: { matcher: 'Bash' },
            PostToolUse: [
              7,
              { matcher: 3, hooks: [] },
              { hooks: 'x' },
              {
                hooks: [
                  null,
                  { type: 'command' },
                  { type: 'command', command: 'x', timeout: -1 },
                  { type: 'agent' },
                  { command: 'y' },
                  { type: 'command', command: 'ok', if: 'Bash(git *)' },
                  { type: 'command', command: 'fine', extra: 1 },
                ],
              },
            ],
            Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: 'n' }] }],
          },
        },
      },
      { file: 'd.json', scope: 'user', document: { disableAllHooks: true, hooks: { Stop: [{ hooks: [{ type: 'command', command: 's' }] }] } } },
    ]);
    expect(r.skipped.map((s) => `${s.origin.file} ${s.origin.event}[${s.origin.group}][${s.origin.hook}]: ${s.reason}`)).toEqual([
      'a.json null[null][null]: the file is not an object with a `hooks` table',
      'b.json null[null][null]: `hooks` is not an object of events',
      'c.json PreToolUse[null][null]: `PreToolUse` is not a list of matcher groups',
      'c.json PostToolUse[0][null]: the matcher group is not an object',
      'c.json PostToolUse[1][null]: `matcher` is not a string',
      'c.json PostToolUse[2][null]: `hooks` in the matcher group is not a list',
      'c.json PostToolUse[3][0]: the hook is not an object',
      'c.json PostToolUse[3][1]: `command` is missing or empty',
      'c.json PostToolUse[3][2]: `timeout` must be a positive number of seconds',
      'c.json PostToolUse[3][3]: a `agent` hook is not a command; Codewhale hooks run commands',
      'c.json PostToolUse[3][4]: `type` is missing (only `"command"` hooks can be carried over)',
      'c.json PostToolUse[3][5]: its `if` filter has no Codewhale counterpart (without it the hook would run more often)',
      'c.json Notification[0][0]: the matcher selects the kind of notification, which a Codewhale condition cannot see',
      'd.json Stop[0][0]: the file sets `disableAllHooks`, so Claude Code does not run this hook',
    ]);
    expect(r.entries.map((e) => [e.entry.command, e.notes])).toEqual([['fine', [POST_NOTE, '`extra` is not carried over: Codewhale does not know it']]]);
  });

  test("Codex: config.toml's [hooks] (its `state` records are not hooks), matchers ignored where Codex ignores them", () => {
    const r = importPeerHooks('codex', [
      {
        file: '~/.codex/config.toml',
        scope: 'user',
        document: {
          model: 'gpt-5',
          hooks: {
            state: { 'x:pre_tool_use:0:0': { trusted_hash: 'abc' } },
            PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'gate.sh', timeout: 0n }] }],
            Stop: [{ matcher: 'whatever', hooks: [{ type: 'command', command: 'stop.sh', commandWindows: 'stop.cmd' }] }],
            PermissionRequest: [{ hooks: [{ type: 'command', command: 'p.sh' }] }],
          },
        },
      },
    ]);
    expect(r.entries.map((e) => [e.entry.event, e.entry.command, e.entry.timeout_secs, e.entry.condition ?? null, e.notes])).toEqual([
      ['tool_call_before', 'gate.sh', 1, { type: 'tool_name', name: 'bash' }, ['`timeout = 0`: Codex runs it with 1 s, and so does this entry']],
      [
        'turn_end',
        'stop.sh',
        600,
        null,
        [
          '`turn_end` only observes: a request to keep the agent going is reported, not followed',
          'Codex ignores a matcher on `Stop`; so does this entry',
          '`commandWindows` is not carried over: the same `command` runs on every platform',
        ],
      ],
    ]);
    expect(r.skipped.map((s) => s.reason)).toEqual(["Codex's `PermissionRequest` has no Codewhale counterpart"]);
  });

  test('a SessionStart matcher without `startup` is not carried over', () => {
    const r = importPeerHooks('claude-code', [{ file: 'f', scope: 'user', document: { hooks: { SessionStart: [{ matcher: 'resume|compact', hooks: [{ type: 'command', command: 'x' }] }] } } }]);
    expect(r.entries).toEqual([]);
    expect(r.skipped.map((s) => s.reason)).toEqual(["the matcher selects `resume`, `compact` session starts; Codewhale's `session_start` is the peer's `startup` only"]);
  });
});

const CONFIG = `# my Codewhale config
model = "deepseek-chat" # the default model

[hooks]
enabled = true # keep hooks on

# a gate I wrote myself
[[hooks.hooks]]
name = "mine"
event = "tool_call_before"
command = "./gate.sh"
`;

/** The hook set the loader builds from this text, as config.toml or as a project hooks.toml. */
function entriesOf(shape: HooksFileShape, text: string) {
  const parsed = parseUserConfig(shape === 'config' ? text : '');
  if (!parsed.ok) throw new Error(parsed.issues[0]!.summary);
  return buildHookSet(parsed.value.hooks, shape === 'project' ? parseProjectHooks(new TextEncoder().encode(text)) : null);
}

describe('appendHookEntries', () => {
  const all = importPeerHooks('claude-code', [USER, PROJECT, LOCAL]).entries.map((e) => e.entry);

  test('the written TOML keeps every byte and comment, and every entry loads as a claude-code hook', () => {
    const r = appendHookEntries(CONFIG, all, 'config');
    if (!r.ok) throw new Error(r.issues[0]!.message);
    expect(r.value.text.startsWith(CONFIG)).toBe(true);
    expect(r.value.added).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const set = entriesOf('config', r.value.text);
    expect(set.problems.filter((p) => p.severity === 'rejected')).toEqual([]);
    expect(set.hooks.map((h) => [h.label, h.event, h.protocol, h.timeoutSecs])).toEqual([
      ['mine', 'tool_call_before', 'codewhale', 30],
      ['claude-code: PreToolUse Bash', 'tool_call_before', 'claude-code', 10],
      ['claude-code: PreToolUse mcp__github__.*', 'tool_call_before', 'claude-code', 600],
      ['claude-code: Notification', 'waiting_for_user', 'claude-code', 600],
      ['claude-code: PostToolUse Edit|Write', 'tool_call_after', 'claude-code', 30],
      ['claude-code: UserPromptSubmit', 'message_submit', 'claude-code', 600],
      ['claude-code: PostToolUse', 'tool_call_after', 'claude-code', 600],
      ['claude-code: SessionStart startup|resume', 'session_start', 'claude-code', 3],
    ]);
    expect(set.hooks[4]!.condition).toEqual({
      type: 'any',
      conditions: [
        { type: 'tool_name', name: 'edit' },
        { type: 'tool_name', name: 'write' },
      ],
    });
  });

  test('the exact text of an appended entry', () => {
    const r = appendHookEntries('# project hooks\n', [all[3]!], 'project');
    expect(r.ok && r.value.text).toBe(
      [
        '# project hooks',
        '',
        '[[hooks]]',
        'name = "claude-code: PostToolUse Edit|Write"',
        'event = "tool_call_after"',
        'protocol = "claude-code"',
        'command = "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/format.sh"',
        'timeout_secs = 30',
        'condition = { type = "any", conditions = [{ type = "tool_name", name = "edit" }, { type = "tool_name", name = "write" }] }',
        '',
      ].join('\n'),
    );
    if (r.ok) expect(entriesOf('project', r.value.text).hooks.map((h) => h.source)).toEqual(['project']);
  });

  test('a comment above an entry says where it came from, on one line', () => {
    const r = appendHookEntries('', [all[0]!], 'config', ['imported from ~/.claude/settings.json\nPreToolUse[0].hooks[0]']);
    expect(r.ok && r.value.text.split('\n').slice(0, 2)).toEqual(['# imported from ~/.claude/settings.json PreToolUse[0].hooks[0]', '[[hooks.hooks]]']);
  });

  test('CRLF files stay CRLF', () => {
    const r = appendHookEntries('# x\r\n[hooks]\r\nenabled = true\r\n', [all[0]!], 'config');
    expect(r.ok && r.value.text.split('\r\n').length - 1).toBe(r.ok ? r.value.text.split('\n').length - 1 : -1);
  });

  test('an inline array, a non-table `hooks` or a syntax error is refused and the text is not changed', () => {
    expect(appendHookEntries('[hooks]\nhooks = [{ event = "session_start", command = "x" }]\n', [all[0]!], 'config')).toMatchObject({ ok: false, issues: [{ code: 'unsupported_layout' }] });
    expect(appendHookEntries('hooks = 3\n', [all[0]!], 'config')).toMatchObject({ ok: false, issues: [{ code: 'unsupported_layout' }] });
    expect(appendHookEntries('[hooks]\n', [all[0]!], 'project')).toMatchObject({ ok: false, issues: [{ code: 'unsupported_layout' }] });
    expect(appendHookEntries('[hooks\n', [all[0]!], 'config')).toMatchObject({ ok: false, issues: [{ code: 'config_unparseable', message: expect.stringContaining('config.toml:1:') }] });
  });

  const entry = fc
    .record({
      name: fc.string({ maxLength: 8 }),
      event: fc.constantFrom('tool_call_before', 'tool_call_after', 'session_start', 'turn_end'),
      protocol: fc.constant('claude-code'),
      command: fc.string({ minLength: 1, maxLength: 12 }).filter((c) => c.trim() !== ''),
      timeout_secs: fc.integer({ min: 1, max: 3600 }),
      background: fc.option(fc.constant(true as const), { nil: undefined }),
      condition: fc.option(
        fc.constantFrom(
          { type: 'tool_name', name: 'bash' },
          {
            type: 'any',
            conditions: [
              { type: 'tool_name', name: 'edit' },
              { type: 'tool_name', name: 'a"b\\c' },
            ],
          },
        ),
        { nil: undefined },
      ),
    })
    // As the importer does: a tool condition only on a tool event.
    .map(({ condition, ...e }) => (e.event.startsWith('tool_') && condition ? { ...e, condition } : e)) as fc.Arbitrary<ImportedHookEntry>;
  const clean = (e: ImportedHookEntry): ImportedHookEntry => JSON.parse(JSON.stringify(e)) as ImportedHookEntry;

  for (const shape of ['config', 'project'] as const) {
    test(`${shape}: importing twice appends nothing the second time; in parts or at once gives the same file`, () => {
      fc.assert(
        fc.property(fc.array(entry.map(clean), { maxLength: 6 }), fc.array(entry.map(clean), { maxLength: 6 }), fc.constantFrom('', '# c\n', '# c\n\n', '# no newline'), (a, b, start) => {
          const once = appendHookEntries(start, [...a, ...b], shape);
          if (!once.ok) throw new Error(once.issues[0]!.message);
          const again = appendHookEntries(once.value.text, [...a, ...b], shape);
          expect(again.ok && again.value.text).toBe(once.value.text);
          expect(again.ok && again.value.added).toEqual([]);
          expect(again.ok && again.value.present.length).toBe(a.length + b.length);
          const first = appendHookEntries(start, a, shape);
          const second = first.ok ? appendHookEntries(first.value.text, b, shape) : first;
          expect(second.ok && second.value.text).toBe(once.value.text);
          expect(once.value.text.startsWith(start)).toBe(true);
          // Each distinct hook (whatever its name) is in the file once.
          const distinct = new Set([...a, ...b].map(({ name: _n, ...rest }) => JSON.stringify(rest, Object.keys(rest).sort())));
          expect(once.value.added.length).toBe(distinct.size);
          expect(entriesOf(shape, once.value.text).hooks.length).toBe(distinct.size);
          // A hook given twice in one import is written once.
          const doubled = appendHookEntries(start, [...a, ...a], shape);
          const single = appendHookEntries(start, a, shape);
          expect(doubled.ok && doubled.value.text).toBe(single.ok && single.value.text);
          // A renamed copy is the same hook.
          const renamed = appendHookEntries(
            once.value.text,
            [...a, ...b].map((e) => ({ ...e, name: `${e.name}!` })),
            shape,
          );
          expect(renamed.ok && renamed.value.added).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });
  }
});
