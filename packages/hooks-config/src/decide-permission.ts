import type { PermissionAction, PermissionMatch } from './permission-rule.js';

/** What the gate chain knows when it asks {@link decidePermission}. */
export interface PermissionGateInput {
  /** The folded `tool_call_before` decision, or `null` when no hook gave one. */
  readonly hook: PermissionAction | null;
  /** `matchPermission(...)` for the (possibly rewritten) call. */
  readonly rule: PermissionMatch | null;
  /** Whether the posture alone would ask (Ask posture for a tool that needs approval); `false` under Full Access. */
  readonly postureAsks: boolean;
}

/** The gate's answer, and which layer decided it. */
export interface PermissionGateResult {
  readonly action: PermissionAction;
  readonly by: 'hook' | 'rule' | 'posture';
}

/**
 * Combine a hook's decision, the typed rule and the posture, the way every surface does (the
 * rules run after the hooks):
 * 1. a hook's `deny` denies; then a typed `deny` denies — in every mode and posture, Full
 *    Access included;
 * 2. a hook's `ask` asks, and a typed `allow` never clears it; a typed `ask` asks (a surface
 *    that cannot prompt, such as `exec`, turns an ask into a deny);
 * 3. a typed `allow` allows without the posture's prompt;
 * 4. otherwise the posture decides (a hook's `allow` does not skip the posture's prompt).
 * Pure; the order is data-free on purpose: deny > ask > allow at every layer.
 */
export function decidePermission(input: PermissionGateInput): PermissionGateResult {
  if (input.hook === 'deny') return { action: 'deny', by: 'hook' };
  if (input.rule?.action === 'deny') return { action: 'deny', by: 'rule' };
  if (input.hook === 'ask') return { action: 'ask', by: 'hook' };
  if (input.rule?.action === 'ask') return { action: 'ask', by: 'rule' };
  if (input.rule?.action === 'allow') return { action: 'allow', by: 'rule' };
  return { action: input.postureAsks ? 'ask' : 'allow', by: 'posture' };
}
