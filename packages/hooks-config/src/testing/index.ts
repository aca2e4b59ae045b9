/**
 * `@codewhale/hooks-config/testing`: builders for validated hook definitions and hook sets,
 * for code that runs hooks (a supervisor, an engine, your own dispatcher) and wants to test
 * without writing TOML. The result has exactly the shape the loader produces.
 */
import type { HookCondition } from '@codewhale/hooks-conditions';
import { LIMITS, sanitizeLabel, type HookEventName } from '@codewhale/hooks-payloads';
import type { HookDefinition, HookSet } from '../types.js';

/** What a test usually cares about; everything else gets the loader's default. */
export interface HookDefinitionOverrides extends Partial<Omit<HookDefinition, 'event' | 'command' | 'condition'>> {
  readonly condition?: HookCondition | null;
}

/** One validated hook (global, `timeout_secs` 30 unless given, foreground, lenient). */
export function hookDefinition(event: HookEventName, command: string, over: HookDefinitionOverrides = {}): HookDefinition {
  const name = over.name === undefined ? 'hook' : over.name;
  const background = over.background ?? false;
  const timeoutSecs = over.timeoutSecs ?? LIMITS.defaultTimeoutSecs;
  return {
    index: 0,
    name,
    label: sanitizeLabel(name),
    event,
    command,
    timeoutSecs,
    effectiveTimeoutSecs: over.effectiveTimeoutSecs ?? timeoutSecs,
    timeoutSource: over.timeoutSecs === undefined ? 'default' : 'hook',
    background,
    runsInBackground: background && event !== 'shell_env',
    continueOnError: true,
    condition: null,
    source: 'global',
    origin: { file: 'config.toml', line: null },
    protocol: 'codewhale',
    ...over,
  };
}

/** A hook set of these hooks, enabled, in the given order (indexes reassigned). */
export function hookSet(hooks: readonly HookDefinition[], over: Partial<HookSet> = {}): HookSet {
  return {
    configured: true,
    enabled: true,
    defaultTimeoutSecs: null,
    workingDir: null,
    hooks: hooks.map((h, index) => ({ ...h, index })),
    problems: [],
    ...over,
  };
}
