import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { buildPeerDocument, describePeerAnswer, peerObserverRequests, peerPermissionMode, readPeerGateAnswer, readPeerPromptAnswer, type PeerRun } from './peer-protocol.js';
import { foldToolCallBefore } from './tool-call-before.js';
import { foldMessageSubmit, HOOK_CONTEXT_MARKER } from './message-submit.js';
import { gateDecisionToJson } from './decision-record-json.js';
import { HOOK_EVENT_NAMES } from './events.js';
import { ourToPeerEvent } from './peer-events.js';
import { LIMITS } from './limits.js';
import { codePointLength } from './utf8.js';
import type { HookOutcome } from './outcome.js';

const WS = '/work/proj';
const run = (exitCode: number | null, stdout = '', stderr = '', over: Partial<PeerRun> = {}): PeerRun => ({ exitCode, stdout, stderr, stdoutTruncated: false, stderrTruncated: false, ...over });
const call = { tool: 'bash', input: { command: 'rm -rf build' }, workspace: WS };
const pre = (specific: Record<string, unknown>, top: Record<string, unknown> = {}) => JSON.stringify({ ...top, hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } });

describe('permission_mode', () => {
  it('is plan in Plan mode whatever the posture, else follows the posture', () => {
    fc.assert(
      fc.property(fc.constantFrom('plan', 'PLAN', 'Plan', 'work', 'ACT', 'Agent', 'operate', null), fc.constantFrom('ask', 'auto_review', 'full_access', 'other', null), (mode, posture) => {
        const got = peerPermissionMode(mode, posture);
        if (mode !== null && mode.toLowerCase() === 'plan') expect(got).toBe('plan');
        else expect(got).toBe(posture === 'full_access' ? 'bypassPermissions' : posture === 'auto_review' ? 'acceptEdits' : 'default');
      }),
    );
  });
});

describe('the peer stdin document', () => {
  it('PreToolUse: common fields, tool name and input in the peer spelling, the call id', () => {
    const d = buildPeerDocument({
      event: 'tool_call_before',
      sessionId: 'sess_1',
      workspace: WS,
      mode: 'Agent',
      posture: 'ask',
      model: 'm',
      tool: { name: 'read', callId: 'c1', input: { path: 'src/a.ts' } },
    })!;
    expect(JSON.parse(d.json)).toEqual({
      session_id: 'sess_1',
      transcript_path: null,
      cwd: WS,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      model: 'm',
      tool_name: 'Read',
      tool_input: { file_path: '/work/proj/src/a.ts' },
      tool_use_id: 'c1',
    });
  });
  it('PostToolUse carries the tool response, bounded, and the shell receipt streams', () => {
    const receipt = JSON.stringify({ schema_version: 1, command: 'ls', cwd: WS, state: 'completed', scope: 'local', exit_code: 0, stdout: 'a\n', stderr: '', output_kind: 'separate' });
    const d = buildPeerDocument({
      event: 'tool_call_after',
      sessionId: 's',
      workspace: WS,
      tool: { name: 'Bash', callId: 'c', input: { command: 'ls' }, result: 'x'.repeat(20_000), success: true, exitCode: 0, executionReceipt: receipt },
    })!;
    const r = d.document['tool_response'] as Record<string, unknown>;
    expect(d.document['tool_name']).toBe('Bash');
    expect(r).toMatchObject({ success: true, exit_code: 0, stdout: 'a\n', stderr: '', interrupted: false, output_truncated: true });
    expect((r['output'] as string).length).toBeLessThanOrEqual(LIMITS.envToolResultMaxBytes + 20);
  });
  it('UserPromptSubmit carries the prompt; Notification, Stop, SubagentStop their own fields', () => {
    expect(buildPeerDocument({ event: 'message_submit', sessionId: 's', workspace: WS, prompt: 'hi' })!.document).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    expect(buildPeerDocument({ event: 'waiting_for_user', sessionId: 's', workspace: WS, native: { reason: 'approval' } })!.document).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
    });
    expect(buildPeerDocument({ event: 'turn_end', sessionId: 's', workspace: WS })!.document).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false });
    expect(buildPeerDocument({ event: 'subagent_complete', sessionId: 's', workspace: WS, native: { agent_id: 'agent_1', result_preview: 'done' } })!.document).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_id: 'agent_1',
      last_assistant_message: 'done',
    });
  });
  it('exists exactly for the events with a peer name, and is always valid JSON', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOOK_EVENT_NAMES), fc.string(), fc.jsonValue(), (event, prompt, input) => {
        const d = buildPeerDocument({ event, sessionId: 's', workspace: WS, prompt, tool: { name: 'write', callId: 'c', input } });
        expect(d === null).toBe(ourToPeerEvent(event) === null);
        if (d) expect(JSON.parse(d.json)).toEqual(JSON.parse(JSON.stringify(d.document)));
      }),
    );
  });
});

describe('PreToolUse answers', () => {
  it('exit 2 denies with stderr as the reason, whatever stdout says', () => {
    const a = readPeerGateAnswer(run(2, pre({ permissionDecision: 'allow' }), 'Blocked: rm -rf is not allowed\n'), call);
    expect(a).toMatchObject({ exit2: true, reason: 'Blocked: rm -rf is not allowed' });
    // The reason is redacted as every denial reason is: `-rf` is an argument.
    expect(a.answer).toBe('exit 2; stderr reason: "Blocked: rm [argument] is not allowed"');
  });
  it('reads permissionDecision allow / deny / ask, and defer as ask', () => {
    for (const [pd, want] of [
      ['allow', 'allow'],
      ['deny', 'deny'],
      ['ask', 'ask'],
      ['defer', 'ask'],
    ] as const) {
      const a = readPeerGateAnswer(run(0, pre({ permissionDecision: pd, permissionDecisionReason: 'why' })), call);
      expect(a.decision).toBe(want);
      expect(a.reason).toBe('why');
    }
  });
  it('reads the older decision approve / block with reason', () => {
    expect(readPeerGateAnswer(run(0, JSON.stringify({ decision: 'block', reason: 'no' })), call)).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(readPeerGateAnswer(run(0, JSON.stringify({ decision: 'approve' })), call)).toMatchObject({ decision: 'allow' });
  });
  it('maps updatedInput back to our field names', () => {
    const a = readPeerGateAnswer(run(0, pre({ permissionDecision: 'allow', updatedInput: { file_path: '/work/proj/b.txt', content: 'z' } })), {
      tool: 'write',
      input: { path: 'a.txt', content: 'x' },
      workspace: WS,
    });
    expect(a.updatedInput).toEqual({ path: 'b.txt', content: 'z' });
  });
  it('continue: false denies this call with stopReason and says so', () => {
    const a = readPeerGateAnswer(run(0, JSON.stringify({ continue: false, stopReason: 'halt' })), call);
    expect(a).toMatchObject({ decision: 'deny', reason: 'halt' });
    expect(a.warnings.join(' ')).toContain('continue: false');
  });
  it('stdout is read only on exit 0, never when oversized, and non-JSON is no decision', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 255 }), fc.boolean(), (code, truncated) => {
        fc.pre(code !== 2);
        const a = readPeerGateAnswer(run(code, pre({ permissionDecision: 'deny', permissionDecisionReason: 'x' }), '', { stdoutTruncated: truncated }), call);
        expect(a.decision).toBe(code === 0 && !truncated ? 'deny' : null);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (stdout) => {
        fc.pre(!stdout.trim().startsWith('{'));
        expect(readPeerGateAnswer(run(0, stdout), call).decision).toBeNull();
      }),
    );
  });
  it('never throws, and the answer line is one bounded line with secrets redacted', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: -1, max: 255 })),
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        fc.string(),
        (code, stdout, stderr) => {
          const a = readPeerGateAnswer(run(code, stdout, stderr), call);
          expect(a.answer).not.toMatch(/[\n\r\u0000-\u001f]/);
          expect(codePointLength(a.answer)).toBeLessThanOrEqual(360);
          if (a.reason !== null) expect(codePointLength(a.reason)).toBeLessThanOrEqual(LIMITS.steeringFieldMaxChars + 20);
        },
      ),
    );
    const secret = readPeerGateAnswer(run(0, JSON.stringify({ decision: 'block', reason: 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' })), call);
    expect(secret.answer).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    const secret2 = readPeerGateAnswer(run(2, '', 'password=hunter2hunter2 blocked'), call);
    expect(secret2.answer).not.toContain('hunter2hunter2');
    expect(describePeerAnswer(run(0, 'plain text with a /secret/path'))).toBe('exit 0; stdout that is not a JSON object (30 bytes)');
    // A JSON answer is summarised: decisions and redacted reasons, never the rewritten input or the context.
    const json = describePeerAnswer(
      run(0, pre({ permissionDecision: 'deny', permissionDecisionReason: 'see /etc/passwd', updatedInput: { command: 'cat /etc/shadow' }, additionalContext: 'abc' }, { extra: 1 })),
    );
    expect(json).toBe('exit 0; JSON permissionDecision: deny; permissionDecisionReason: "see [path]"; updatedInput with command; additionalContext (3 characters); other fields: extra');
    expect(json).not.toContain('shadow');
  });
});

const outcome = (over: Partial<HookOutcome> & { protocol?: 'claude-code' | 'codewhale'; strict?: boolean }): HookOutcome => ({
  hook: { index: 0, name: 'g', label: 'g', event: 'tool_call_before', source: 'global', continueOnError: !over.strict, background: false, protocol: over.protocol ?? 'claude-code' },
  background: false,
  strict: over.strict ?? false,
  success: (over.exitCode ?? 0) === 0,
  exitCode: 0,
  signal: null,
  durationMs: 1,
  timedOut: false,
  spawnError: null,
  error: null,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  ...over,
});

describe('the fold over peer answers', () => {
  const fold = (o: HookOutcome, input: unknown = { command: 'rm -rf build' }, tool = 'bash') =>
    foldToolCallBefore({ tool, callId: 'c', originalInput: input, outcomes: [o], workspace: WS, peerDocument: '{"hook_event_name":"PreToolUse"}' });

  it('exit 2 with stderr is a deny whose reason is redacted and bounded', () => {
    const r = fold(outcome({ exitCode: 2, stderr: 'Blocked: rm -rf /home/u/build is dangerous' }));
    expect(r.decision).toBe('deny');
    expect(r.denyKind).toBe('exit_2');
    expect(r.message).toContain('Blocked');
    expect(r.message).not.toContain('/home/u/build');
    expect(r.hooks[0]!.peer).toMatchObject({ protocol: 'claude-code' });
    expect(r.input.peer).toBe('{"hook_event_name":"PreToolUse"}');
    expect(gateDecisionToJson(r)['hooks']).toMatchObject([{ peer: { protocol: 'claude-code' } }]);
  });
  it('JSON deny, ask, allow with updatedInput fold like our own verdicts', () => {
    expect(fold(outcome({ stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'nope' }) })).decision).toBe('deny');
    expect(fold(outcome({ stdout: pre({ permissionDecision: 'ask' }) })).decision).toBe('ask');
    const r = fold(
      outcome({ stdout: pre({ permissionDecision: 'allow', updatedInput: { file_path: '/work/proj/b', content: 'y' }, additionalContext: 'ctx' }) }),
      { path: 'a', content: 'x' },
      'write',
    );
    expect(r).toMatchObject({ decision: 'allow', updatedInput: { path: 'b', content: 'y' }, additionalContext: 'ctx' });
  });
  it('a strict peer hook exiting 1 has no verdict and denies; a lenient one allows', () => {
    expect(fold(outcome({ exitCode: 1, strict: true, stdout: pre({ permissionDecision: 'allow' }) })).denyKind).toBe('no_verdict');
    expect(fold(outcome({ exitCode: 1, stdout: pre({ permissionDecision: 'deny' }) })).decision).toBe('allow');
  });
  it('our own protocol is untouched: stderr is never a reason and there is no peer field', () => {
    const r = fold(outcome({ protocol: 'codewhale', exitCode: 2, stderr: 'Blocked secret text' }));
    expect(r.message).not.toContain('Blocked secret text');
    expect(r.hooks[0]!.peer).toBeUndefined();
    expect(r.input.peer).toBeUndefined();
  });
});

describe('UserPromptSubmit answers and the message_submit chain', () => {
  const msg = (over: Partial<HookOutcome> & { strict?: boolean }) =>
    outcome({ ...over, hook: { index: 0, name: 'p', label: 'p', event: 'message_submit', source: 'global', continueOnError: !over.strict, background: false, protocol: 'claude-code' } });

  it('exit 2 blocks with the redacted stderr; decision block blocks with reason', () => {
    expect(readPeerPromptAnswer(run(2, '', 'no secrets please'))).toMatchObject({ kind: 'block', reason: 'no secrets please' });
    const r = foldMessageSubmit('hello', [msg({ exitCode: 2, stderr: 'see /etc/shadow' })]);
    expect(r.kind).toBe('blocked');
    if (r.kind === 'blocked') expect(r.reason).not.toContain('/etc/shadow');
    expect(foldMessageSubmit('hello', [msg({ stdout: JSON.stringify({ decision: 'block', reason: 'not now' }) })])).toMatchObject({ kind: 'blocked', reason: 'not now' });
  });
  it('additionalContext and plain stdout are appended as hook context; the next hook sees them', () => {
    const r = foldMessageSubmit('hello', [
      msg({ stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'branch: main' } }) }),
      msg({ stdout: 'time: noon\n' }),
    ]);
    expect(r).toMatchObject({ kind: 'replaced', text: `hello\n\n${HOOK_CONTEXT_MARKER} branch: main\n\n${HOOK_CONTEXT_MARKER} time: noon` });
  });
  it('context is bounded; context that would push the text past 32,000 characters is dropped', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20_000 }), fc.integer({ min: 0, max: 33_000 }), (ctx, textLen) => {
        fc.pre(ctx.trim() !== '' && !ctx.trim().startsWith('{') && !ctx.trim().startsWith('['));
        const text = 'a'.repeat(textLen);
        const r = foldMessageSubmit(text, [msg({ stdout: ctx })]);
        expect(r.kind).not.toBe('blocked');
        if (r.kind !== 'blocked') {
          expect(r.text.startsWith(text)).toBe(true);
          if (r.text !== text) expect(codePointLength(r.text)).toBeLessThanOrEqual(LIMITS.messageSubmitReplacementMaxChars);
          expect(codePointLength(r.text) - codePointLength(text)).toBeLessThanOrEqual(LIMITS.contextMaxChars + 40);
        }
      }),
      { numRuns: 40 },
    );
  });
  it('a failure follows continue_on_error', () => {
    expect(foldMessageSubmit('x', [msg({ exitCode: 1, stdout: 'ctx' })]).kind).toBe('unchanged');
    expect(foldMessageSubmit('x', [msg({ exitCode: 1, strict: true })]).kind).toBe('blocked');
  });
});

describe('observer answers', () => {
  it('a Stop hook asking to continue is reported, not ignored', () => {
    expect(peerObserverRequests('Stop', run(0, JSON.stringify({ decision: 'block', reason: 'keep going' })))[0]).toContain('asked the agent to continue');
    expect(peerObserverRequests('Stop', run(2, '', 'more'))[0]).toContain('asked the agent to continue');
    expect(peerObserverRequests('Stop', run(0, ''))).toEqual([]);
    expect(peerObserverRequests('PostToolUse', run(0, JSON.stringify({ hookSpecificOutput: { additionalContext: 'x' } })))[0]).toContain('additionalContext');
  });
});
