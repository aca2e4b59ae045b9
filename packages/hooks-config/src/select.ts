import type { HookContext, HookEventName, HookIdentity } from '@codewhale/hooks-payloads';
import { matchCondition } from '@codewhale/hooks-conditions';
import type { HookDefinition, HookSet } from './types.js';

/** The hooks configured for `event`, in config order; empty when the set is globally disabled. */
export function hooksForEvent(set: HookSet, event: HookEventName): HookDefinition[] {
  if (!set.enabled) return [];
  return set.hooks.filter((h) => h.event === event);
}

/** True when at least one enabled hook is configured for `event` (the dispatch fast path). */
export function hasHooksForEvent(set: HookSet, event: HookEventName): boolean {
  return set.enabled && set.hooks.some((h) => h.event === event);
}

/** The hooks that fire for this context: right event, set enabled, condition holds; config order. */
export function matchingHooks(set: HookSet, ctx: HookContext): HookDefinition[] {
  if (!set.enabled) return [];
  return set.hooks.filter((h) => h.event === ctx.event && matchCondition(h.condition, ctx));
}

/** What steering code and outcome records need to know about a hook. */
export function hookIdentity(hook: HookDefinition): HookIdentity {
  if (hook.protocol !== 'codewhale') {
    return {
      index: hook.index,
      name: hook.name,
      label: hook.label,
      event: hook.event,
      source: hook.source,
      continueOnError: hook.continueOnError,
      background: hook.runsInBackground,
      protocol: hook.protocol,
    };
  }
  return {
    index: hook.index,
    name: hook.name,
    label: hook.label,
    event: hook.event,
    source: hook.source,
    continueOnError: hook.continueOnError,
    background: hook.runsInBackground,
  };
}
