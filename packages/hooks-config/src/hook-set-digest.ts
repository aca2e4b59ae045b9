import type { HookCondition } from '@codewhale/hooks-conditions';
import type { HookSet, Sha256 } from './types.js';

function canonicalCondition(c: HookCondition): unknown {
  switch (c.type) {
    case 'always':
      return { type: 'always' };
    case 'tool_name':
      return { type: c.type, name: c.name };
    case 'tool_category':
      return { type: c.type, category: c.category };
    case 'mode':
      return { type: c.type, mode: c.mode };
    case 'exit_code':
      return { type: c.type, code: c.code.toString() };
    case 'all':
    case 'any':
      return { type: c.type, conditions: c.conditions.map(canonicalCondition) };
  }
}

/**
 * The canonical serialization the hook-set digest covers: compact JSON, fixed key order,
 * one object per runnable hook in set order with its event, name, command, effective
 * timeout, whether it runs in the background, `continue_on_error`, condition (exit codes
 * as decimal strings), source and, when it is not `codewhale`, protocol.
 */
export function canonicalHookSet(set: HookSet): string {
  return JSON.stringify({
    version: 1,
    hooks: set.hooks.map((h) => ({
      event: h.event,
      name: h.name,
      command: h.command,
      effective_timeout_secs: h.effectiveTimeoutSecs,
      background: h.runsInBackground,
      continue_on_error: h.continueOnError,
      condition: h.condition ? canonicalCondition(h.condition) : null,
      source: h.source,
      // Only a non-default protocol is named, so a set without one keeps its digest.
      ...(h.protocol !== 'codewhale' ? { protocol: h.protocol } : {}),
    })),
  });
}

/**
 * SHA-256 (lowercase hex, via the injected hasher) of {@link canonicalHookSet}: names the
 * exact hook set a decision record was made under (D28). Same hooks, same digest.
 */
export function hookSetDigest(set: HookSet, sha256: Sha256): string {
  return sha256(new TextEncoder().encode(canonicalHookSet(set))).toLowerCase();
}
