import type { HookCondition } from '@codewhale/hooks-conditions';
import type { HookDefinition, HookSet } from '@codewhale/hooks-config';
import { sanitizeLabel, type HookEventName } from '@codewhale/hooks-payloads';

export interface HookSpec {
  event: HookEventName;
  command: string;
  name?: string;
  condition?: HookCondition;
  continueOnError?: boolean;
  background?: boolean;
  timeoutSecs?: number;
}

/** A validated hook set, as hooks-config produces it, from compact specs. */
export function hookSet(specs: HookSpec[], over: Partial<HookSet> = {}): HookSet {
  const hooks: HookDefinition[] = specs.map((s, index) => ({
    index,
    name: s.name ?? null,
    label: sanitizeLabel(s.name ?? null),
    event: s.event,
    command: s.command,
    timeoutSecs: s.timeoutSecs ?? 30,
    effectiveTimeoutSecs: s.timeoutSecs ?? 30,
    timeoutSource: s.timeoutSecs ? 'hook' : 'default',
    background: s.background ?? false,
    runsInBackground: (s.background ?? false) && s.event !== 'shell_env',
    continueOnError: s.continueOnError ?? true,
    condition: s.condition ?? null,
    source: 'global',
    origin: { file: 'config.toml', line: null },
  }));
  return { configured: true, enabled: true, defaultTimeoutSecs: null, workingDir: null, hooks, problems: [], ...over };
}
