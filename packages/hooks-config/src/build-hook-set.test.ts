import { describe, expect, it } from 'vitest';
import { hooksToml, load, summaries } from './test-fixtures.js';

describe('per-entry rejection by position', () => {
  it('rejection_drops_only_the_offending_entry: shared names and unnamed entries', () => {
    const set = load(
      hooksToml(
        'event = "session_start"\ncommand = "first"',
        'event = "session_start"\ncommand = "second"\ntimeout_secs = 0',
        'name = "gate"\nevent = "tool_call_before"\ncommand = "good gate"',
        'name = "gate"\nevent = "tool_call_before"\ncommand = ""',
      ),
    );
    expect(set.hooks.map((h) => h.command)).toEqual(['first', 'good gate']);
    expect(set.hooks.map((h) => h.index)).toEqual([0, 1]);
    expect(set.problems.filter((p) => p.severity === 'rejected').map((p) => p.entry)).toEqual([1, 3]);
  });

  it('rejected_hooks_are_dropped_at_load_and_reported, never reaching dispatch', () => {
    const set = load(hooksToml('event = "session_start"\ncommand = "x"\ncondition = { type = "exit_code", code = 0 }'));
    expect(set.hooks).toEqual([]);
    expect(set.problems).toHaveLength(1);
  });

  it('orders problems: settings first, then per entry in index order', () => {
    const set = load(
      '[hooks]\nfoo = 1\ndefault_timeout_secs = 0\n[[hooks.hooks]]\nevent = "shell_env"\ncommand = "a"\nbackground = true\n[[hooks.hooks]]\nevent = "session_start"\ncommand = " "\ntimeout_secs = 0\ncondition = { type = "tool_name", name = "x" }\n',
    );
    expect(set.problems.map((p) => p.code)).toEqual(['zero_default_timeout', 'unknown_setting', 'background_ignored_on_shell_env', 'unsupported_condition', 'zero_timeout', 'empty_command']);
  });
});

describe('merge with project hooks (reference §2)', () => {
  const project = '[[hooks]]\nname = "p1"\nevent = "tool_call_before"\ncommand = "./.codewhale/hooks/gate.sh"\ntimeout_secs = 90\n[[hooks]]\nname = "p2"\nevent = "turn_end"\ncommand = "y"\n';

  it('appends project hooks after global hooks, with merged indices and sources', () => {
    const set = load(hooksToml('name = "g1"\nevent = "tool_call_before"\ncommand = "x"'), project);
    expect(set.hooks.map((h) => [h.index, h.label, h.source])).toEqual([
      [0, 'g1', 'global'],
      [1, 'p1', 'project'],
      [2, 'p2', 'project'],
    ]);
    expect(set.hooks[1]!.origin).toEqual({ file: '/ws/.codewhale/hooks.toml', line: 1 });
    expect(set.hooks[2]!.origin.line).toBe(6);
  });

  it('ignores the project file\u2019s enabled, default_timeout_secs and working_dir', () => {
    const set = load(hooksToml('event = "turn_end"\ncommand = "g"'), `enabled = false\ndefault_timeout_secs = 1\nworking_dir = "/evil"\n${project}`);
    expect(set).toMatchObject({ enabled: true, defaultTimeoutSecs: null, workingDir: null });
    expect(set.hooks).toHaveLength(3);
    expect(set.hooks[1]!.effectiveTimeoutSecs).toBe(90);
    expect(set.problems).toEqual([]);
  });

  it('applies the user\u2019s override to project hooks too', () => {
    const set = load('[hooks]\ndefault_timeout_secs = 4\n', project);
    expect(set.hooks.map((h) => [h.effectiveTimeoutSecs, h.timeoutSource])).toEqual([
      [4, 'override'],
      [4, 'override'],
    ]);
  });

  it('validates the merged set: a rejected project hook is reported like a global one', () => {
    const set = load(hooksToml('event = "turn_end"\ncommand = "g"'), '[[hooks]]\nname = "bad"\nevent = "turn_end"\ncommand = ""\n');
    expect(set.hooks).toHaveLength(1);
    expect(set.problems[0]).toMatchObject({ source: 'project', file: '/ws/.codewhale/hooks.toml', line: 1, entry: 0 });
    expect(summaries(set)).toEqual(['rejected: `turn_end` hook `bad` \u2014 `command` is empty']);
  });

  it('project hooks load even without a [hooks] table in the user config', () => {
    const set = load('', project);
    expect(set.configured).toBe(true);
    expect(set.hooks).toHaveLength(2);
  });
});
