import type { HookCondition } from '@codewhale/hooks-conditions';
import type { HookSet } from '@codewhale/hooks-config';
import { hookDefinition, hookSet as buildSet } from '@codewhale/hooks-config/testing';
import type { HookEventName } from '@codewhale/hooks-payloads';

export interface HookSpec {
  event: HookEventName;
  command: string;
  name?: string;
  condition?: HookCondition;
  continueOnError?: boolean;
  background?: boolean;
  timeoutSecs?: number;
}

/** A validated hook set from compact specs (unnamed unless a name is given). */
export function hookSet(specs: HookSpec[], over: Partial<HookSet> = {}): HookSet {
  return buildSet(
    specs.map((s) =>
      hookDefinition(s.event, s.command, {
        name: s.name ?? null,
        ...(s.condition ? { condition: s.condition } : {}),
        ...(s.continueOnError !== undefined ? { continueOnError: s.continueOnError } : {}),
        ...(s.background !== undefined ? { background: s.background } : {}),
        ...(s.timeoutSecs !== undefined ? { timeoutSecs: s.timeoutSecs } : {}),
      }),
    ),
    over,
  );
}
