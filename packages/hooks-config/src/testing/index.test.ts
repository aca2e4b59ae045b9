import { describe, expect, it } from 'vitest';
import { matchingHooks } from '../select.js';
import { buildHookSet } from '../build-hook-set.js';
import { parseUserConfig } from '../parse-user-config.js';
import { hookDefinition, hookSet } from './index.js';

describe('@codewhale/hooks-config/testing', () => {
  it('builds what the loader builds for the same config', () => {
    const parsed = parseUserConfig('[hooks]\n[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "gate.sh"\n', 'config.toml');
    if (!parsed.ok) throw new Error('parse');
    const loaded = buildHookSet(parsed.value.hooks).hooks[0]!;
    const built = hookSet([hookDefinition('tool_call_before', 'gate.sh', { name: 'gate' })]).hooks[0]!;
    expect({ ...built, origin: null }).toEqual({ ...loaded, origin: null });
  });

  it('reindexes in order, never runs shell_env in the background, and matches like a loaded set', () => {
    const set = hookSet([hookDefinition('shell_env', 'a', { background: true }), hookDefinition('tool_call_before', 'b', { condition: { type: 'tool_name', name: 'bash' } })]);
    expect(set.hooks.map((h) => [h.index, h.runsInBackground])).toEqual([
      [0, false],
      [1, false],
    ]);
    expect(matchingHooks(set, { event: 'tool_call_before', tool: { name: 'exec_shell' } }).map((h) => h.command)).toEqual(['b']);
  });
});
