import type { HookEventName } from './events.js';

/**
 * The peer's event names (Claude Code's `hook_event_name`, which Codex shares) and the event each
 * one is in Codewhale. A `claude-code` hook may be configured only on these events; every other
 * event has no peer counterpart. `Stop` is an observer here (`turn_end`): a Stop hook that asks
 * the agent to continue is reported as unsupported.
 */
/** A peer event name that has a Codewhale counterpart. */
export type PeerEventName = 'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'SessionStart' | 'SessionEnd' | 'Notification' | 'Stop' | 'SubagentStop';

const PEER_TO_OURS = Object.freeze({
  PreToolUse: 'tool_call_before',
  PostToolUse: 'tool_call_after',
  UserPromptSubmit: 'message_submit',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  Notification: 'waiting_for_user',
  Stop: 'turn_end',
  SubagentStop: 'subagent_complete',
} as const satisfies Readonly<Record<PeerEventName, HookEventName>>);

/** The peer event names we carry, in the order above. */
export const PEER_EVENT_NAMES: readonly PeerEventName[] = Object.freeze(Object.keys(PEER_TO_OURS) as PeerEventName[]);

/** Our event for a peer event name (exact spelling), or `null` when there is none (`PreCompact`, `PermissionRequest`…). */
export function peerToOurEvent(name: string): HookEventName | null {
  return Object.hasOwn(PEER_TO_OURS, name) ? PEER_TO_OURS[name as PeerEventName] : null;
}

/** The peer's name for one of our events, or `null` when a `claude-code` hook cannot be configured on it. */
export function ourToPeerEvent(event: HookEventName): PeerEventName | null {
  for (const name of PEER_EVENT_NAMES) if (PEER_TO_OURS[name] === event) return name;
  return null;
}
