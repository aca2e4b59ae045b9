import fc from 'fast-check';
import { sanitizeLine } from '@codewhale/hooks-payloads';
import { describe, expect, it } from 'vitest';
import { buildHooksList } from './hooks-list.js';
import { hooksListToJson } from './hooks-list-json.js';
import { HOOKS_DISABLED_BANNER, NO_HOOKS_TEXT, NO_RUNNABLE_HOOKS_TEXT, renderHooksList } from './render-hooks-list.js';
import { formatTomlString } from './toml-format.js';
import { hooksToml, load } from './test-fixtures.js';
import type { ProjectApproval } from './project-approval.js';

const list = (text: string, project?: string, approval: ProjectApproval | null = null) => renderHooksList(buildHooksList(load(text, project), approval));

describe('renderHooksList (reference §18.3)', () => {
  it('no hooks and no problems', () => {
    expect(list('')).toBe(NO_HOOKS_TEXT);
    expect(NO_HOOKS_TEXT).toBe('No hooks configured. Add a `[[hooks.hooks]]` entry to `~/.codewhale/config.toml` to define one.');
  });

  it('no runnable hooks: every entry was rejected', () => {
    expect(list(hooksToml('name = "gate"\nevent = "session_start"\ncommand = ""'))).toBe(`${NO_RUNNABLE_HOOKS_TEXT}\n\n  - rejected: \`session_start\` hook \`gate\` \u2014 \`command\` is empty`);
  });

  it('list_renders_hooks_grouped_by_event (alphabetical) and notes disabled state', () => {
    const text = list(
      '[hooks]\nenabled = false\n' +
        '[[hooks.hooks]]\nname = "z"\nevent = "turn_end"\ncommand = "echo z"\n' +
        '[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "~/.codewhale/hooks/gate.sh"\ncondition = { type = "all", conditions = [{ type = "tool_name", name = "exec_shell" }, { type = "mode", mode = "yolo" }] }\n' +
        '[[hooks.hooks]]\nname = "bg"\nevent = "session_start"\ncommand = "echo bg"\nbackground = true\n' +
        '[[hooks.hooks]]\nevent = "shell_env"\ncommand = "aws-vault export p --format=env"\nbackground = true\ncondition = { type = "tool_category", category = "shell" }\n',
    );
    expect(text).toBe(
      [
        '4 configured hook(s) (global enabled: no \u2014 all hooks suppressed):',
        '',
        '### session_start',
        '  - bg [bg, submitted not awaited] (timeout 30s)',
        '      $ echo bg',
        '',
        '### shell_env',
        '  - (unnamed) (timeout 30s) if tool_category=`shell`',
        '      $ aws-vault export p --format=env',
        '',
        '### tool_call_before',
        '  - gate (timeout 30s) if all of [tool_name=`exec_shell`, mode=`yolo`]',
        '      $ ~/.codewhale/hooks/gate.sh',
        '',
        '### turn_end',
        '  - z (timeout 30s)',
        '      $ echo z',
        '',
        '### configuration problems',
        '  - warning: `shell_env` hook `(unnamed)` \u2014 `background = true` is not honored for `shell_env`; its stdout is the contract, so it always runs in the foreground',
        '',
        HOOKS_DISABLED_BANNER,
      ].join('\n'),
    );
    expect(HOOKS_DISABLED_BANNER).toBe('Hooks are globally disabled \u2014 set `[hooks].enabled = true` in `config.toml` to fire them.');
  });

  it('listed_timeout_is_the_one_the_runtime_will_apply', () => {
    const text = list('[hooks]\ndefault_timeout_secs = 5\n[[hooks.hooks]]\nname = "a"\nevent = "turn_end"\ncommand = "x"\ntimeout_secs = 90\n');
    expect(text).toContain('  - a (timeout 5s \u2014 `[hooks].default_timeout_secs` override)');
    expect(text).toContain('1 configured hook(s) (global enabled: yes):');
    expect(text).not.toContain('90');
  });

  it('listed_timeout_ignores_a_rejected_zero_override', () => {
    const text = list('[hooks]\ndefault_timeout_secs = 0\n[[hooks.hooks]]\nname = "a"\nevent = "turn_end"\ncommand = "x"\ntimeout_secs = 90\n');
    expect(text).toContain('  - a (timeout 90s)\n');
    expect(text).toContain('### configuration problems\n  - rejected: `[hooks]` setting \u2014 `default_timeout_secs = 0`');
  });

  it('names a clamped timeout', () => {
    expect(list(hooksToml('name = "a"\nevent = "turn_end"\ncommand = "x"\ntimeout_secs = 9999999'))).toContain('(timeout 2147483s \u2014 clamped to the 2147483s maximum)');
  });

  it('marks project hooks and shows the project approval state', () => {
    const approval: ProjectApproval = {
      state: 'approved',
      trusted: true,
      digest: 'ab'.repeat(32),
      approvedDigest: 'ab'.repeat(32),
      scripts: ['.codewhale/hooks/gate.sh'],
      changedScripts: [],
      loadable: true,
    };
    const text = list(hooksToml('name = "g"\nevent = "turn_end"\ncommand = "x"'), '[[hooks]]\nname = "p"\nevent = "turn_end"\ncommand = "./p.sh"\n', approval);
    expect(text).toContain('### turn_end\n  - g (timeout 30s)\n      $ x\n  - p [project] (timeout 30s)\n      $ ./p.sh\n');
    expect(text).toContain(`### project hooks\n  - status: approved \u2014 project hooks are loaded\n  - digest: ${'ab'.repeat(32)}\n  - workspace trusted: yes`);
    expect(text).not.toContain('.codewhale/hooks/gate.sh');
  });

  it('marks a hook that speaks a peer protocol, in text and JSON', () => {
    const text = hooksToml('name = "cc"\nevent = "tool_call_before"\ncommand = "./gate.py"\nprotocol = "claude-code"', 'name = "native"\nevent = "tool_call_before"\ncommand = "./n.sh"');
    expect(list(text)).toContain('### tool_call_before\n  - cc [protocol claude-code] (timeout 30s)\n      $ ./gate.py\n  - native (timeout 30s)\n');
    const json = hooksListToJson(buildHooksList(load(text))) as { hooks: { label: string; protocol: string }[] };
    expect(json.hooks.map((h) => [h.label, h.protocol])).toEqual([
      ['cc', 'claude-code'],
      ['native', 'codewhale'],
    ]);
  });

  it('shows pending, changed and revoked project states even with no global hooks', () => {
    const base = { trusted: false, digest: 'cd'.repeat(32), approvedDigest: null, scripts: [], changedScripts: [], loadable: false } as const;
    expect(list('', undefined, { ...base, state: 'pending' })).toBe(
      `${NO_HOOKS_TEXT}\n\n### project hooks\n  - status: pending approval \u2014 not loaded; review with \`hooks review\`, then \`hooks approve <digest>\`\n  - digest: ${'cd'.repeat(32)}\n  - workspace trusted: no`,
    );
    expect(list('', undefined, { ...base, state: 'changed', changedScripts: ['a.sh'] })).toContain(
      'status: changed since approval (1 pinned script changed) \u2014 not loaded; review again and approve the new digest',
    );
    expect(list('', undefined, { ...base, state: 'revoked' })).toContain('status: revoked \u2014 not loaded');
    expect(list('', undefined, { ...base, state: 'none', digest: null })).toBe(NO_HOOKS_TEXT);
  });

  it('rendered_problems_name_the_hook_without_leaking_the_command', () => {
    const text = list(
      hooksToml(
        'name = "gate"\nevent = "session_start"\ncommand = "/usr/bin/secret-gate --token $TOKEN"\ncondition = { type = "exit_code", code = 1 }',
        'event = "shell_env"\ncommand = "/opt/x/env.sh"\nbackground = true',
      ),
    );
    const problems = text.slice(text.indexOf('### configuration problems'));
    expect(problems).toContain('rejected: `session_start` hook `gate`');
    expect(problems).toContain('warning: `shell_env` hook `(unnamed)`');
    expect(problems).not.toContain('$');
    expect(problems).not.toContain('/');
  });

  it('preview_command_defangs_control_characters and truncates to 60', () => {
    const text = list(hooksToml(`event = "turn_end"\ncommand = ${formatTomlString(`echo \u001b[2Jhi\r\tthere\u0007${'x'.repeat(80)}`)}`));
    const preview = text
      .split('\n')
      .find((l) => l.startsWith('      $ '))!
      .slice(8);
    expect(preview).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(preview).toContain('there');
    expect(Array.from(preview)).toHaveLength(60);
    expect(preview.endsWith('\u2026')).toBe(true);
  });
});

describe('hooksListToJson', () => {
  it('uses snake_case keys and carries no raw command', () => {
    const set = load(
      '[hooks]\ndefault_timeout_secs = 5\n[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "/very/secret/path/gate.sh --flag"\ncondition = { type = "exit_code", code = 3221225477 }\n' +
        '[[hooks.hooks]]\nname = "ok"\nevent = "on_error"\ncommand = "x"\ncondition = { type = "any", conditions = [{ type = "exit_code", code = 99999999999999999 }] }\n',
    );
    const json = hooksListToJson(buildHooksList(set, null));
    expect(Object.keys(json)).toEqual(['configured', 'enabled', 'default_timeout_secs', 'events', 'hooks', 'problems', 'project']);
    expect(json['events']).toHaveLength(15);
    expect(json['hooks']).toEqual([
      {
        index: 0,
        name: 'ok',
        label: 'ok',
        event: 'on_error',
        source: 'global',
        background: false,
        effective_timeout_secs: 5,
        timeout_source: 'override',
        timeout_overridden: true,
        timeout_clamped: false,
        continue_on_error: true,
        condition: { type: 'any', conditions: [{ type: 'exit_code', code: '99999999999999999' }] },
        condition_summary: 'any of [exit_code=99999999999999999]',
        command_preview: 'x',
        protocol: 'codewhale',
      },
    ]);
    expect(json['problems']).toEqual([
      {
        severity: 'rejected',
        code: 'unsupported_condition',
        event: 'tool_call_before',
        label: 'gate',
        detail: '`tool_call_before` has no completed process to read an exit code from; `exit_code` conditions are only supported on `tool_call_after` and `on_error`',
        summary:
          'rejected: `tool_call_before` hook `gate` \u2014 `tool_call_before` has no completed process to read an exit code from; `exit_code` conditions are only supported on `tool_call_after` and `on_error`',
        source: 'global',
        line: 3,
      },
    ]);
    expect(JSON.stringify(json)).not.toContain('secret');
    expect(json['project']).toBeNull();
  });

  it('describes the project as snake_case too', () => {
    const json = hooksListToJson(buildHooksList(load(''), { state: 'pending', trusted: true, digest: 'ef'.repeat(32), approvedDigest: null, scripts: [], changedScripts: [], loadable: false }));
    expect(json['project']).toEqual({ file_present: true, trusted: true, state: 'pending', digest: 'ef'.repeat(32), loaded: false, changed_scripts: 0 });
  });
});

describe('properties', () => {
  const hostile = fc.string({
    unit: fc.constantFrom('a', 'Z', ' ', '/', '\\', '$', '\u001b', '\n', '\r', '\t', '\u0007', '\u202e', '"', "'", '[', ']', 'é', '🐳', '~', '.', '=', '#', '`'),
    maxLength: 90,
  });
  const event = fc.constantFrom('session_start', 'tool_call_before', 'shell_env', 'PreToolUse', '/etc/passwd', 'evil\u001b[2J', '');
  const entry = fc.record({
    name: fc.option(hostile, { nil: undefined }),
    event,
    command: hostile,
    timeout: fc.constantFrom('', 'timeout_secs = 0\n', 'timeout_secs = "5"\n', 'timeout_secs = 9999999999\n'),
    background: fc.boolean(),
    cond: fc.constantFrom('', 'condition = { type = "exit_code", code = 2 }\n', 'condition = { type = "mode", mode = "plan" }\n', 'conditon = 1\n'),
  });
  const SECRET = '/home/alice/.secret/gate.sh';
  // The list shows a 60-char preview of each command; everything past it must never appear.
  const LEAD = 'q'.repeat(60);

  it('never leaks a command or a path into problems or list output, and never a control character', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (entries) => {
        const text =
          '[hooks]\nworking_dir = "/home/alice/private"\n' +
          entries
            .map(
              (e) =>
                `[[hooks.hooks]]\n${e.name === undefined ? '' : `name = ${formatTomlString(e.name)}\n`}event = ${formatTomlString(e.event)}\ncommand = ${formatTomlString(`${LEAD} ${SECRET} ${e.command}`)}\n${e.timeout}${e.background ? 'background = true\n' : ''}${e.cond}`,
            )
            .join('');
        const set = load(text);
        const model = buildHooksList(set, null);
        const rendered = renderHooksList(model);
        const json = JSON.stringify(hooksListToJson(model));
        for (const p of set.problems) {
          expect(p.summary).not.toContain('qqqq');
          expect(p.summary).not.toContain(SECRET);
          expect(p.summary).not.toContain('/home/alice');
          expect(p.detail).not.toContain('/home/alice');
          expect(p.summary).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
          expect(Array.from(p.summary).length).toBeLessThan(400);
          // A command's text may legitimately appear as a hook's name (shown in problems, with
          // its control characters made spaces: `a\n🐳#` reads `a 🐳#`): skip those.
          const shown = (name: string) => [name, sanitizeLine(name).text];
          for (const e of entries)
            if (e.command.length > 3 && /[^a-zA-Z ]/.test(e.command) && !entries.some((o) => o.name !== undefined && shown(o.name).some((n) => n.includes(e.command))))
              expect(p.summary).not.toContain(e.command);
        }
        expect(rendered).not.toContain(SECRET);
        expect(rendered).not.toContain('/home/alice/private');
        expect(json).not.toContain(SECRET);
        expect(json).not.toContain('/home/alice/private');
        expect(rendered).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('an approved project file that cannot be parsed', () => {
  const approval: ProjectApproval = { state: 'approved', trusted: true, digest: 'a'.repeat(64), approvedDigest: 'a'.repeat(64), scripts: [], changedScripts: [], loadable: true };

  it('is reported as not loaded, pointing at the configuration problems', () => {
    const model = buildHooksList(load('', '[[hooks]\nevent = '), approval);
    expect(model.project?.loaded).toBe(false);
    expect(renderHooksList(model)).toContain('status: approved, but the file cannot be read or parsed \u2014 not loaded (see configuration problems)');
  });

  it('is loaded when it parses', () => {
    const model = buildHooksList(load('', '[[hooks]]\nevent = "session_start"\ncommand = "true"\n'), approval);
    expect(model.project?.loaded).toBe(true);
    expect(renderHooksList(model)).toContain('status: approved \u2014 project hooks are loaded');
  });
});
