import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { ourToPeerEvent, PEER_EVENT_NAMES, peerToOurEvent } from './peer-events.js';
import { HOOK_EVENT_NAMES } from './events.js';

describe('peer events', () => {
  it('map as documented', () => {
    expect(Object.fromEntries(PEER_EVENT_NAMES.map((n) => [n, peerToOurEvent(n)]))).toEqual({
      PreToolUse: 'tool_call_before',
      PostToolUse: 'tool_call_after',
      UserPromptSubmit: 'message_submit',
      SessionStart: 'session_start',
      SessionEnd: 'session_end',
      Notification: 'waiting_for_user',
      Stop: 'turn_end',
      SubagentStop: 'subagent_complete',
    });
  });
  it('is one-to-one, and every other event of ours has no peer name', () => {
    for (const event of HOOK_EVENT_NAMES) {
      const peer = ourToPeerEvent(event);
      if (peer === null) expect(PEER_EVENT_NAMES.some((n) => peerToOurEvent(n) === event)).toBe(false);
      else expect(peerToOurEvent(peer)).toBe(event);
    }
    expect(new Set(PEER_EVENT_NAMES.map(peerToOurEvent)).size).toBe(PEER_EVENT_NAMES.length);
  });
  it('knows no other name, in any case', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('pretooluse', 'PRETOOLUSE', 'PreCompact', 'PermissionRequest', 'toString', '__proto__', 'tool_call_before')), (s) => {
        expect(peerToOurEvent(s)).toBe((PEER_EVENT_NAMES as readonly string[]).includes(s) ? peerToOurEvent(s) : null);
        if (!(PEER_EVENT_NAMES as readonly string[]).includes(s)) expect(peerToOurEvent(s)).toBeNull();
      }),
    );
  });
});
