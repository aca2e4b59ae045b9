import type { GateDecisionRecord, GateHookRecord } from './tool-call-before.js';

/** One decision-record row as snake_case JSON. */
export function gateHookToJson(h: GateHookRecord): Record<string, unknown> {
  return {
    index: h.index,
    label: h.label,
    source: h.source,
    strict: h.strict,
    background: h.background,
    outcome: h.outcome,
    detail: h.detail,
    exit_code: h.exitCode,
    duration_ms: h.durationMs,
    rewrote_input: h.rewroteInput,
    added_context: h.addedContext,
    ...(h.peer ? { peer: { protocol: h.peer.protocol, answer: h.peer.answer, warnings: [...h.peer.warnings] } } : {}),
  };
}

/**
 * A `tool_call_before` decision record (D28) as snake_case JSON — the same shape `exec`
 * stream-json, `hooks test --json` and the opt-in decision log carry. Never raw stdout,
 * stderr, commands or env values.
 */
export function gateDecisionToJson(d: GateDecisionRecord): Record<string, unknown> {
  return {
    schema_version: d.schemaVersion,
    tool: d.tool,
    call_id: d.callId,
    decision: d.decision,
    deny_kind: d.denyKind,
    message: d.message,
    updated_input: d.updatedInput,
    additional_context: d.additionalContext,
    hooks: d.hooks.map(gateHookToJson),
    input: d.input,
    hook_set_digest: d.hookSetDigest,
  };
}
