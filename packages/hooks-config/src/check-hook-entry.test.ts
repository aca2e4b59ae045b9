import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { HOOK_EVENT_NAMES, HOOK_PROTOCOLS, ourToPeerEvent } from '@codewhale/hooks-payloads';
import { hooksToml, load, summaries } from './test-fixtures.js';

const one = (body: string) => load(hooksToml(body));

describe('entries: defaults and accepted shapes', () => {
  it('minimal_hook_toml_keeps_its_documented_defaults', () => {
    const set = one('event = "session_start"\ncommand = "echo hi"');
    expect(set.problems).toEqual([]);
    expect(set.hooks).toHaveLength(1);
    expect(set.hooks[0]).toMatchObject({
      index: 0,
      name: null,
      label: '(unnamed)',
      event: 'session_start',
      command: 'echo hi',
      timeoutSecs: 30,
      effectiveTimeoutSecs: 30,
      timeoutSource: 'default',
      background: false,
      runsInBackground: false,
      continueOnError: true,
      condition: null,
      source: 'global',
      origin: { file: '/home/u/.codewhale/config.toml', line: 2 },
      protocol: 'codewhale',
    });
  });

  it('every_event_name_round_trips: each of the 15 names loads', () => {
    const set = load(hooksToml(...HOOK_EVENT_NAMES.map((e) => `event = "${e}"\ncommand = "true"`)));
    expect(set.problems).toEqual([]);
    expect(set.hooks.map((h) => h.event)).toEqual([...HOOK_EVENT_NAMES]);
  });

  it('exit_code_conditions_hold_large_windows_crash_codes', () => {
    const set = one('event = "tool_call_after"\ncommand = "x"\ncondition = { type = "exit_code", code = 3221225477 }');
    expect(set.hooks[0]!.condition).toEqual({ type: 'exit_code', code: 3221225477n });
    const small = one('event = "on_error"\ncommand = "x"\ncondition = { type = "exit_code", code = 1 }');
    expect(small.hooks[0]!.condition).toEqual({ type: 'exit_code', code: 1n });
    const big = one('event = "on_error"\ncommand = "x"\ncondition = { type = "exit_code", code = -9223372036854775808 }');
    expect(big.hooks[0]!.condition).toEqual({ type: 'exit_code', code: -(2n ** 63n) });
  });

  it('tool_scoped_on_error_hooks_load_and_dispatch: all[tool_name, exit_code=127] on on_error', () => {
    const set = one('event = "on_error"\ncommand = "x"\ncondition = { type = "all", conditions = [{ type = "tool_name", name = "exec_shell" }, { type = "exit_code", code = 127 }] }');
    expect(set.problems).toEqual([]);
    expect(set.hooks).toHaveLength(1);
  });

  it('accepts every mode alias case-insensitively, keeping the spelling as written', () => {
    for (const mode of ['act', 'AGENT', 'Work', 'auto', 'yolo', 'plan', 'Operate']) {
      const set = one(`event = "mode_change"\ncommand = "x"\ncondition = { type = "mode", mode = "${mode}" }`);
      expect(set.problems, mode).toEqual([]);
      expect(set.hooks[0]!.condition).toEqual({ type: 'mode', mode });
    }
  });
});

describe('entries: rejected alone, with a reason', () => {
  const rejectedOnly = (body: string): string[] => {
    const set = one(body);
    expect(set.hooks).toEqual([]);
    return summaries(set);
  };

  it('an unknown event names it and suggests the real one', () => {
    expect(rejectedOnly('name = "gate"\nevent = "PreToolUse"\ncommand = "x"')).toEqual(['rejected: `PreToolUse` hook `gate` \u2014 unknown event `PreToolUse`; did you mean `tool_call_before`?']);
    expect(rejectedOnly('event = "toolCallBefore"\ncommand = "x"')[0]).toContain('did you mean `tool_call_before`?');
    expect(rejectedOnly('event = "frobnicate"\ncommand = "x"')).toEqual(['rejected: `frobnicate` hook `(unnamed)` \u2014 unknown event `frobnicate`; `hooks events` lists the 15 event names']);
  });

  it('an unknown event that is not a plain name is never echoed', () => {
    const [line] = rejectedOnly('event = "/etc/passwd \\u001b[2J"\ncommand = "x"');
    expect(line).toBe('rejected: `(invalid event)` hook `(unnamed)` \u2014 unknown event; `hooks events` lists the 15 event names');
  });

  it('a missing event or command', () => {
    expect(rejectedOnly('name = "a"\ncommand = "x"')).toEqual(['rejected: `(missing event)` hook `a` \u2014 `event` is missing; `hooks events` lists the 15 event names']);
    expect(rejectedOnly('name = "b"\nevent = "turn_end"')).toEqual(['rejected: `turn_end` hook `b` \u2014 `command` is missing']);
  });

  it('wrong field types', () => {
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\ntimeout_secs = "30"')).toEqual([
      'rejected: `turn_end` hook `(unnamed)` \u2014 `timeout_secs` must be a whole number of seconds (got a string)',
    ]);
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\nbackground = "yes"')).toEqual(['rejected: `turn_end` hook `(unnamed)` \u2014 `background` must be `true` or `false` (got a string)']);
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\ncontinue_on_error = 1')[0]).toContain('`continue_on_error` must be `true` or `false` (got an integer)');
    expect(rejectedOnly('event = "turn_end"\ncommand = 5')[0]).toContain('`command` must be a string (got an integer)');
    expect(rejectedOnly('event = 5\ncommand = "x"')[0]).toBe('rejected: `(invalid event)` hook `(unnamed)` \u2014 `event` must be a string naming an event (got an integer)');
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\nname = true')[0]).toContain('`name` must be a string (got a boolean)');
  });

  it('negative and fractional timeouts', () => {
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\ntimeout_secs = -5')).toEqual([
      'rejected: `turn_end` hook `(unnamed)` \u2014 `timeout_secs` must be a positive whole number of seconds (got a negative number)',
    ]);
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\ntimeout_secs = 1.5')[0]).toContain('(got a fractional number)');
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\ntimeout_secs = nan')[0]).toContain('(got a non-finite number)');
  });

  it('an unknown key, with a suggestion when one is close', () => {
    expect(rejectedOnly('name = "g"\nevent = "tool_call_before"\ncommand = "x"\nconditon = { type = "always" }')).toEqual([
      'rejected: `tool_call_before` hook `g` \u2014 unknown key `conditon`; did you mean `condition`?',
    ]);
    expect(rejectedOnly('event = "turn_end"\ncommand = "x"\nzzz = 1')[0]).toContain(
      'unknown key `zzz`; an entry takes `event`, `command`, `name`, `timeout_secs`, `background`, `continue_on_error`, `condition`, `protocol`',
    );
  });

  it('empty_command_and_zero_timeout_are_rejected', () => {
    const set = load(hooksToml('event = "session_start"\ncommand = "   "', 'event = "session_start"\ncommand = "x"\ntimeout_secs = 0'));
    expect(set.hooks).toEqual([]);
    expect(summaries(set)).toEqual([
      'rejected: `session_start` hook `(unnamed)` \u2014 `command` is empty',
      'rejected: `session_start` hook `(unnamed)` \u2014 `timeout_secs = 0` expires immediately; the command is killed before it can produce output',
    ]);
  });

  it('an entry that is not a table', () => {
    const set = load('[hooks]\nhooks = [1, { event = "turn_end", command = "x" }]\n');
    expect(set.hooks).toHaveLength(1);
    expect(summaries(set)).toEqual(['rejected: `(missing event)` hook `(unnamed)` \u2014 a hook entry must be a table (got an integer)']);
  });

  it('collects every problem of one entry, in order', () => {
    const set = one('name = "n"\nevent = "tool_call_before"\ncommand = ""\ntimeout_secs = 0\nbackground = true\nextra = 1\ncondition = { type = "exit_code", code = 1 }');
    expect(set.problems.map((p) => p.code)).toEqual(['unknown_key', 'unsupported_condition', 'background_on_steering_event', 'zero_timeout', 'empty_command']);
  });
});

describe('protocol', () => {
  it('defaults to codewhale and accepts each known protocol', () => {
    expect(one('event = "tool_call_before"\ncommand = "x"').hooks[0]!.protocol).toBe('codewhale');
    for (const protocol of HOOK_PROTOCOLS) {
      const set = one(`event = "tool_call_before"\ncommand = "x"\nprotocol = "${protocol}"`);
      expect(set.problems).toEqual([]);
      expect(set.hooks[0]!.protocol).toBe(protocol);
    }
  });

  it('rejects an unknown protocol alone, with a suggestion or the list, and file and line', () => {
    const set = load(hooksToml('event = "turn_end"\ncommand = "ok"', 'name = "g"\nevent = "tool_call_before"\ncommand = "x"\nprotocol = "claude_code"'));
    expect(set.hooks.map((h) => h.command)).toEqual(['ok']);
    expect(set.problems).toMatchObject([{ code: 'unknown_protocol', file: '/home/u/.codewhale/config.toml', line: 5, entry: 1 }]);
    expect(summaries(set)).toEqual(['rejected: `tool_call_before` hook `g` \u2014 unknown protocol `claude_code`; did you mean `claude-code`?']);
    expect(summaries(one('event = "tool_call_before"\ncommand = "x"\nprotocol = "codex"'))[0]).toContain('did you mean `claude-code`?');
    expect(summaries(one('event = "tool_call_before"\ncommand = "x"\nprotocol = "zmodem"'))[0]).toContain('unknown protocol `zmodem`; `protocol` is one of `"codewhale"`, `"claude-code"`');
    expect(summaries(one('event = "tool_call_before"\ncommand = "x"\nprotocol = 2'))[0]).toContain('`protocol` must be a string, one of `"codewhale"`, `"claude-code"` (got an integer)');
  });

  it('any string that is not a protocol is rejected, and never echoed when it is not a plain name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (value) => {
        fc.pre(!(HOOK_PROTOCOLS as readonly string[]).includes(value));
        const set = one(`event = "tool_call_before"\ncommand = "x"\nprotocol = ${JSON.stringify(value)}`);
        expect(set.hooks).toEqual([]);
        expect(set.problems.map((p) => p.code)).toEqual(['unknown_protocol']);
      }),
      { numRuns: 60 },
    );
    expect(summaries(one('event = "tool_call_before"\ncommand = "x"\nprotocol = "/etc/passwd \\u001b[2J"'))[0]).not.toContain('passwd');
  });

  it('claude-code is accepted exactly on the events the peer has, and rejected with the list elsewhere', () => {
    for (const event of HOOK_EVENT_NAMES) {
      const set = one(`event = "${event}"\ncommand = "x"\nprotocol = "claude-code"`);
      const peer = ourToPeerEvent(event);
      if (peer !== null) expect(set.problems).toEqual([]);
      else {
        expect(set.hooks).toEqual([]);
        expect(set.problems.map((p) => p.code)).toEqual(['unsupported_protocol_event']);
        expect(set.problems[0]!.detail).toContain(`no counterpart for \`${event}\``);
        expect(set.problems[0]!.detail).toContain('`tool_call_before` (PreToolUse)');
        expect(set.problems[0]!.detail).toContain('Remove `protocol`');
      }
      // codewhale is accepted everywhere
      expect(one(`event = "${event}"\ncommand = "x"\nprotocol = "codewhale"`).problems).toEqual([]);
    }
  });
});

describe('conditions', () => {
  const codes = (body: string) => one(body).problems.map((p) => [p.severity, p.code]);

  it('exit_code_conditions_are_rejected_only_where_no_exit_code_exists', () => {
    for (const event of HOOK_EVENT_NAMES) {
      const set = one(`event = "${event}"\ncommand = "x"\ncondition = { type = "exit_code", code = 0 }`);
      const supported = event === 'tool_call_after' || event === 'on_error';
      expect(set.hooks.length, event).toBe(supported ? 1 : 0);
      if (!supported) {
        expect(set.problems[0]!.detail).toBe(`\`${event}\` has no completed process to read an exit code from; \`exit_code\` conditions are only supported on \`tool_call_after\` and \`on_error\``);
      }
    }
  });

  it('mode_conditions_are_rejected_on_shell_env_only', () => {
    for (const event of HOOK_EVENT_NAMES) {
      const set = one(`event = "${event}"\ncommand = "x"\ncondition = { type = "mode", mode = "plan" }`);
      expect(set.hooks.length, event).toBe(event === 'shell_env' ? 0 : 1);
    }
    expect(one('event = "shell_env"\ncommand = "x"\ncondition = { type = "mode", mode = "plan" }').problems[0]!.detail).toBe(
      '`shell_env` runs with a narrow context that has no mode, so a `mode` condition can never match; scope it with `tool_name` or `tool_category` instead',
    );
  });

  it('tool_conditions_are_rejected_on_events_with_no_tool', () => {
    const tooled = ['tool_call_before', 'tool_call_after', 'shell_env', 'on_error'];
    for (const event of HOOK_EVENT_NAMES) {
      for (const cond of ['{ type = "tool_name", name = "bash" }', '{ type = "tool_category", category = "shell" }']) {
        const set = one(`event = "${event}"\ncommand = "x"\ncondition = ${cond}`);
        expect(set.hooks.length, `${event} ${cond}`).toBe(tooled.includes(event) ? 1 : 0);
        if (!tooled.includes(event)) expect(set.problems[0]!.detail).toBe(`\`${event}\` never carries a tool name, so this tool condition can never match`);
      }
    }
  });

  it('unsupported_conditions_nested_in_combinators_are_still_rejected, one line per predicate', () => {
    const set = one(
      'event = "session_start"\ncommand = "x"\ncondition = { type = "any", conditions = [{ type = "always" }, { type = "all", conditions = [{ type = "exit_code", code = 0 }, { type = "tool_name", name = "bash" }] }] }',
    );
    expect(set.hooks).toEqual([]);
    expect(set.problems.map((p) => p.code)).toEqual(['unsupported_condition', 'unsupported_condition']);
  });

  it('an unknown condition type, key, category or mode, with suggestions and paths', () => {
    expect(one('event = "tool_call_before"\ncommand = "x"\ncondition = { type = "toolName", name = "bash" }').problems[0]!.detail).toBe(
      'unknown condition type `toolName` in `condition`; did you mean `tool_name`?',
    );
    expect(one('event = "tool_call_before"\ncommand = "x"\ncondition = { type = "tool_name", nmae = "bash" }').problems.map((p) => p.detail)).toEqual([
      '`condition` (a `tool_name` condition) needs `name`',
      'unknown key `nmae` in `condition`; did you mean `name`?',
    ]);
    expect(one('event = "tool_call_before"\ncommand = "x"\ncondition = { type = "all", conditions = [{ type = "tool_category", category = "shel" }] }').problems[0]!).toMatchObject({
      code: 'unknown_tool_category',
      detail: 'unknown tool category `shel` in `condition.conditions[0]`; did you mean `shell`?',
    });
    expect(one('event = "turn_end"\ncommand = "x"\ncondition = { type = "mode", mode = "paln" }').problems[0]!).toMatchObject({
      code: 'unknown_mode',
      detail: 'unknown mode `paln` in `condition`; did you mean `plan`?',
    });
    expect(one('event = "turn_end"\ncommand = "x"\ncondition = { type = "zzz" }').problems[0]!.detail).toBe(
      'unknown condition type `zzz` in `condition`; types are `always`, `tool_name`, `tool_category`, `mode`, `exit_code`, `all`, `any`',
    );
    expect(one('event = "turn_end"\ncommand = "x"\ncondition = { type = "mode", mode = "zzz" }').problems[0]!.detail).toBe(
      'unknown mode `zzz` in `condition`; modes are `plan`, `work` (also `act`, `agent`, `auto`, `yolo`) and `operate`',
    );
    expect(one('event = "on_error"\ncommand = "x"\ncondition = { type = "tool_category", category = "zzz" }').problems[0]!.detail).toBe(
      'unknown tool category `zzz` in `condition`; categories are `shell`, `file_write`, `safe`, `other`',
    );
    expect(codes('event = "turn_end"\ncommand = "x"\ncondition = "always"')).toEqual([['rejected', 'invalid_condition']]);
    expect(codes('event = "turn_end"\ncommand = "x"\ncondition = { name = "x" }')).toEqual([['rejected', 'invalid_condition']]);
    expect(codes('event = "on_error"\ncommand = "x"\ncondition = { type = "exit_code", code = 1.5 }')).toEqual([['rejected', 'invalid_condition']]);
    expect(codes('event = "on_error"\ncommand = "x"\ncondition = { type = "exit_code", code = 9223372036854775808 }')).toEqual([['rejected', 'invalid_condition']]);
    expect(codes('event = "on_error"\ncommand = "x"\ncondition = { type = "tool_name", name = " " }')).toEqual([['rejected', 'invalid_condition']]);
    expect(codes('event = "on_error"\ncommand = "x"\ncondition = { type = "all", conditions = "x" }')).toEqual([['rejected', 'invalid_condition']]);
    expect(codes('event = "on_error"\ncommand = "x"\ncondition = { type = "always", extra = 1 }')).toEqual([['rejected', 'unknown_key']]);
  });
});

describe('background and timeouts', () => {
  it('background_flag_truth_is_reported_per_event', () => {
    const set = load(
      hooksToml(
        'event = "shell_env"\ncommand = "x"\nbackground = true',
        'event = "message_submit"\ncommand = "x"\nbackground = true',
        'event = "tool_call_before"\ncommand = "x"\nbackground = true',
        'event = "turn_end"\ncommand = "x"\nbackground = true',
      ),
    );
    expect(set.hooks).toHaveLength(4);
    expect(set.hooks.map((h) => h.runsInBackground)).toEqual([false, true, true, true]);
    expect(summaries(set)).toEqual([
      'warning: `shell_env` hook `(unnamed)` \u2014 `background = true` is not honored for `shell_env`; its stdout is the contract, so it always runs in the foreground',
      'warning: `message_submit` hook `(unnamed)` \u2014 `background = true` makes this `message_submit` hook observer-only \u2014 it is submitted and never awaited, so it cannot steer the turn',
      'warning: `tool_call_before` hook `(unnamed)` \u2014 `background = true` makes this `tool_call_before` hook observer-only \u2014 it is submitted and never awaited, so it cannot steer the turn',
    ]);
  });

  it('effective_timeout_reports_the_global_override', () => {
    const set = load('[hooks]\ndefault_timeout_secs = 5\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\ntimeout_secs = 90\n');
    expect(set.hooks[0]).toMatchObject({ timeoutSecs: 90, effectiveTimeoutSecs: 5, timeoutSource: 'override' });
    const unset = load(hooksToml('event = "turn_end"\ncommand = "x"\ntimeout_secs = 90'));
    expect(unset.hooks[0]).toMatchObject({ timeoutSecs: 90, effectiveTimeoutSecs: 90, timeoutSource: 'hook' });
  });

  it('clamps effective timeouts above the Node timer maximum (D20)', () => {
    const set = load(hooksToml('event = "turn_end"\ncommand = "x"\ntimeout_secs = 99999999999999999999'));
    expect(set.hooks[0]!.effectiveTimeoutSecs).toBe(2_147_483);
    const viaOverride = load('[hooks]\ndefault_timeout_secs = 3000000\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\n');
    expect(viaOverride.hooks[0]).toMatchObject({ effectiveTimeoutSecs: 2_147_483, timeoutSource: 'override' });
  });
});

describe('problem summaries', () => {
  it('problem_summaries_bound_and_defang_the_hook_name', () => {
    const name = `\u001b[2Jevil\nname${'x'.repeat(300)}`;
    const set = one(`name = ${JSON.stringify(name)}\nevent = "session_start"\ncommand = ""`);
    const summary = set.problems[0]!.summary;
    expect(summary).not.toMatch(/[\u001b\n]/);
    expect(Array.from(summary).length).toBeLessThan(200);
    expect(set.problems[0]!.label).toBe(`[2Jevil name${'x'.repeat(52)}\u2026[truncated]`);
  });

  it('problem_summaries_carry_no_command_or_path', () => {
    const named = one('name = "gate"\nevent = "session_start"\ncommand = "/opt/secret/bin/gate --path /etc"\ntimeout_secs = 0');
    expect(named.problems[0]!.summary).toContain('rejected');
    expect(named.problems[0]!.summary).toContain('session_start');
    expect(named.problems[0]!.summary).toContain('gate');
    expect(named.problems[0]!.summary).not.toMatch(/[/$]/);
    const unnamed = one('event = "shell_env"\ncommand = "/opt/x.sh"\nbackground = true');
    expect(unnamed.problems[0]!.summary).toMatch(/^warning: `shell_env` hook `\(unnamed\)`/);
    expect(unnamed.problems[0]!.summary).not.toContain('/');
  });

  it('carries the file, the entry header line and the entry position', () => {
    const set = load(hooksToml('event = "turn_end"\ncommand = "ok"', 'event = "turn_end"\ncommand = ""'));
    expect(set.problems[0]).toMatchObject({ file: '/home/u/.codewhale/config.toml', line: 5, entry: 1, source: 'global', event: 'turn_end', label: '(unnamed)' });
  });

  it('a config with unrelated settings still parses', () => {
    expect(load(`model = "m"\n[providers.x]\nbase_url = "http://x"\n${hooksToml('event = "turn_end"\ncommand = "x"')}`).hooks).toHaveLength(1);
  });
});
