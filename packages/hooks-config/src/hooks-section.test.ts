import { describe, expect, it } from 'vitest';
import { load, summaries, userConfig } from './test-fixtures.js';

describe('[hooks] settings', () => {
  it('no [hooks] table means no hooks at all', () => {
    const set = load('model = "x"\n');
    expect(set).toMatchObject({ configured: false, enabled: true, defaultTimeoutSecs: null, workingDir: null, hooks: [], problems: [] });
  });

  it('reads enabled, default_timeout_secs and working_dir', () => {
    const set = load('[hooks]\nenabled = false\ndefault_timeout_secs = 7\nworking_dir = "/tmp/w"\n');
    expect(set).toMatchObject({ configured: true, enabled: false, defaultTimeoutSecs: 7, workingDir: '/tmp/w', problems: [] });
  });

  it('zero_default_timeout_is_rejected_and_ignored, and the hooks still load', () => {
    const set = load('[hooks]\ndefault_timeout_secs = 0\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\ntimeout_secs = 90\n');
    expect(set.defaultTimeoutSecs).toBeNull();
    expect(set.hooks[0]).toMatchObject({ effectiveTimeoutSecs: 90, timeoutSource: 'hook' });
    expect(set.problems).toHaveLength(1);
    expect(set.problems[0]).toMatchObject({ severity: 'rejected', code: 'zero_default_timeout', event: null, label: null, line: 2 });
    expect(set.problems[0]!.summary).toBe(
      'rejected: `[hooks]` setting \u2014 `default_timeout_secs = 0` would expire every hook immediately; the override is ignored and per-hook `timeout_secs` applies',
    );
  });

  it('positive_default_timeout_survives_load with no problems', () => {
    const set = load('[hooks]\ndefault_timeout_secs = 5\n');
    expect(set.defaultTimeoutSecs).toBe(5);
    expect(set.problems).toEqual([]);
  });

  it('rejects and ignores a malformed setting, keeping its default', () => {
    const set = load('[hooks]\nenabled = "no"\ndefault_timeout_secs = -1\nworking_dir = ""\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\n');
    expect(set).toMatchObject({ enabled: true, defaultTimeoutSecs: null, workingDir: null });
    expect(set.hooks).toHaveLength(1);
    expect(summaries(set)).toEqual([
      'rejected: `[hooks]` setting \u2014 `enabled` must be `true` or `false` (got a string); the default `true` applies',
      'rejected: `[hooks]` setting \u2014 `default_timeout_secs` must be a positive whole number of seconds (got a negative number); the override is ignored and per-hook `timeout_secs` applies',
      'rejected: `[hooks]` setting \u2014 `working_dir` must be a non-empty string (got an empty string); hooks run in the session workspace',
    ]);
    expect(set.problems.map((p) => p.line)).toEqual([2, 3, 4]);
  });

  it('unknown keys in [hooks] are warnings with a suggestion', () => {
    const set = load('[hooks]\nenabeld = false\nfoo = 1\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\n');
    expect(set.hooks).toHaveLength(1);
    expect(set.enabled).toBe(true);
    expect(summaries(set)).toEqual([
      'warning: `[hooks]` setting \u2014 unknown key `enabeld` in `[hooks]` is ignored; did you mean `enabled`?',
      'warning: `[hooks]` setting \u2014 unknown key `foo` in `[hooks]` is ignored',
    ]);
  });

  it('the project-file shape in config.toml is rejected with the fix', () => {
    const set = load('model = "m"\n\n[[hooks]]\nevent = "turn_end"\ncommand = "x"\n');
    expect(set.hooks).toEqual([]);
    expect(set.problems).toHaveLength(1);
    expect(set.problems[0]).toMatchObject({ code: 'wrong_shape', severity: 'rejected', line: 3 });
    expect(set.problems[0]!.summary).toBe(
      'rejected: `[hooks]` setting \u2014 `[[hooks]]` is the shape of a project `hooks.toml`; in config.toml write each entry as `[[hooks.hooks]]` (1 entry was not loaded)',
    );
  });

  it('a single [hooks.hooks] table instead of an array of tables says how to write it', () => {
    const set = load('[hooks]\n[hooks.hooks]\nevent = "turn_end"\ncommand = "x"\n');
    expect(summaries(set)).toEqual(['rejected: `[hooks]` setting \u2014 `hooks` in `[hooks]` must be an array of hook tables, written `[[hooks.hooks]]` (got a table); no hooks were loaded from it']);
  });

  it('hooks that is not a table at all', () => {
    expect(summaries(load('hooks = true\n'))).toEqual(['rejected: `[hooks]` setting \u2014 `hooks` must be the `[hooks]` table (got a boolean)']);
  });

  it('gives each entry the line of its [[hooks.hooks]] header, and null for inline arrays', () => {
    const cfg = userConfig('# c\n[hooks]\n\n[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\n\n[[ hooks . hooks ]]\nevent = "turn_end"\ncommand = "y"\n');
    expect(cfg.hooks.entries.map((e) => e.line)).toEqual([4, 8]);
    const inline = userConfig('[hooks]\nhooks = [{ event = "turn_end", command = "x" }]\n');
    expect(inline.hooks.entries.map((e) => e.line)).toEqual([null]);
  });
});
