import { describe, expect, it } from 'vitest';
import { LIMITS } from '@codewhale/hooks-payloads';
import { buildHookSet } from './build-hook-set.js';
import { parseProjectHooks } from './parse-project-hooks.js';
import { hooksToml, load, summaries, userConfig } from './test-fixtures.js';
import { utf8 } from './test-sha256.js';

const global = userConfig(hooksToml('name = "g"\nevent = "turn_end"\ncommand = "g"')).hooks;
const merged = (bytes: Uint8Array) => buildHookSet(global, parseProjectHooks(bytes, '/ws/.codewhale/hooks.toml'));

describe('parseProjectHooks', () => {
  it('a TOML syntax error skips project hooks with a warning naming line and column, never content', () => {
    const set = merged(utf8('[[hooks]]\nevent = "turn_end"\ncommand = "rm -rf /secret\n'));
    expect(set.hooks.map((h) => h.label)).toEqual(['g']);
    expect(set.problems).toHaveLength(1);
    const p = set.problems[0]!;
    expect(p).toMatchObject({ severity: 'warning', code: 'toml_syntax', source: 'project', line: 3, file: '/ws/.codewhale/hooks.toml' });
    expect(p.summary).toMatch(/^warning: project hooks file \u2014 TOML syntax error at line 3, column \d+: [^\n]+; project hooks were skipped$/);
    expect(p.summary).not.toContain('secret');
    expect(p.summary).not.toContain('/ws');
  });

  it('1 MiB + 1 byte skips project hooks with a warning', () => {
    const set = merged(new Uint8Array(LIMITS.projectHooksFileMaxBytes + 1).fill(0x20));
    expect(set.hooks).toHaveLength(1);
    expect(summaries(set)).toEqual(['warning: project hooks file \u2014 project hooks file exceeds the 1 MiB limit; project hooks were skipped']);
  });

  it('invalid UTF-8 skips project hooks with a warning', () => {
    const set = merged(new Uint8Array([0x5b, 0x5b, 0xff, 0x5d, 0x5d]));
    expect(summaries(set)).toEqual(['warning: project hooks file \u2014 project hooks file is not valid UTF-8; project hooks were skipped']);
  });

  it('the config.toml shape in hooks.toml is reported with the fix', () => {
    expect(summaries(merged(utf8('[[hooks.hooks]]\nevent = "turn_end"\ncommand = "x"\n')))).toEqual([
      'warning: project hooks file \u2014 `[[hooks.hooks]]` is the config.toml shape; in a project `hooks.toml` write each entry as `[[hooks]]`; project hooks were skipped',
    ]);
    expect(summaries(merged(utf8('[hooks]\nenabled = true\n')))).toEqual([
      'warning: project hooks file \u2014 `[hooks]` is the config.toml shape; a project `hooks.toml` takes `[[hooks]]` entries at the top level; project hooks were skipped',
    ]);
  });

  it('an unknown top-level key is a warning; entries still load', () => {
    const set = merged(utf8('enabeld = true\n[[hooks]]\nevent = "turn_end"\ncommand = "x"\n'));
    expect(set.hooks).toHaveLength(2);
    expect(summaries(set)).toEqual(['warning: project hooks file \u2014 unknown key `enabeld` is ignored; did you mean `enabled`?']);
  });

  it('an empty project file adds nothing', () => {
    expect(load(hooksToml('event = "turn_end"\ncommand = "g"'), '').hooks).toHaveLength(1);
  });
});
