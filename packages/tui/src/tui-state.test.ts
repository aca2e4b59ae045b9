import type { GateDecisionRecord } from '@codewhale/hooks-payloads';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionLines, INITIAL_STATE, ITEMS_KEPT, LIVE_TEXT_MAX, reduceTui, TOAST_MS, uiCommandHints, visibleToast, type TuiAction, type TuiState } from './tui-state.js';

const host = (event: any, now = 0): TuiAction => ({ type: 'host', event, now });
const run = (actions: TuiAction[], s: TuiState = INITIAL_STATE) => actions.reduce(reduceTui, s);
const allLines = (s: TuiState) => s.items.flatMap((i) => i.lines);

const outcome = (over: Record<string, unknown> = {}) => ({
  id: 'call_1',
  name: 'bash',
  input: { command: 'ls' },
  result: { content: 'a\nb', success: true },
  error: null,
  modelText: 'a\nb',
  decision: null,
  receipt: null,
  durationMs: 12,
  ...over,
});

describe('reduceTui', () => {
  it('streams text live, then moves it into the transcript when a tool starts', () => {
    const s = run([host({ type: 'reasoning_delta', text: 'think' }), host({ type: 'text_delta', text: 'Hel' }), host({ type: 'text_delta', text: 'lo' })]);
    expect(s.liveText).toBe('Hello');
    // The answer started: the reasoning is finished and printed.
    expect(s.items).toEqual([{ id: 1, kind: 'reasoning', lines: ['think'], tone: 'dim' }]);
    const t = reduceTui(s, host({ type: 'tool_call_started', id: 'call_1', name: 'bash', input: { command: 'ls -la' } }));
    expect(t.liveText).toBe('');
    expect(t.items.map((i) => i.kind)).toEqual(['reasoning', 'assistant', 'tool']);
    expect(t.items[0]!.tone).toBe('dim');
    expect(t.items[2]!.lines).toEqual(['\u25b8 #1 bash: ls -la']);
  });

  it('one line per tool start and result, large output cut to head and tail', () => {
    const big = Array.from({ length: 1000 }, (_, i) => `out ${i}`).join('\n');
    const s = run([
      host({ type: 'tool_call_started', id: 'call_1', name: 'bash', input: { command: 'seq' } }),
      host({ type: 'tool_call_completed', outcome: outcome({ result: { content: big, success: true } }) }),
    ]);
    const result = s.items[1]!;
    expect(result.lines[0]).toBe('\u2713 #1 bash (12 ms) \u00b7 /expand 1');
    expect(result.lines.length).toBeLessThan(20);
    expect(result.lines.join('\n')).toMatch(/lines not shown/);
    expect(result.lines.at(-1)).toBe('  out 999');
  });

  it('marks a failed command and a refused call', () => {
    const s = run([
      host({ type: 'tool_call_completed', outcome: outcome({ result: { content: 'boom', success: false } }) }),
      host({ type: 'tool_call_completed', outcome: outcome({ id: 'call_2', result: null, error: { kind: 'hook_denied', message: 'no rm' } }) }),
    ]);
    expect(s.items[0]!.tone).toBe('bad');
    expect(s.items[1]!.lines[0]).toBe('\u2717 #2 bash denied by a tool_call_before hook');
  });

  it("a refused or broken call says who refused it in a person's words, never the text written for the model", () => {
    const record = {
      tool: 'bash',
      decision: 'deny',
      denyKind: 'no_verdict',
      message: "ToolCallBefore hook returned no verdict for tool 'bash'",
      hooks: [],
      input: { original: '{}', rewritten: null },
    };
    const request = { id: 'approval_c2', callId: 'c2', tool: 'bash', input: {}, reason: 'posture', summary: 'bash' };
    const refused = (id: string, kind: string, message: string, more: Record<string, unknown> = {}) =>
      host({ type: 'tool_call_completed', outcome: outcome({ id, result: null, error: { kind, message }, modelText: `Error: Tool 'bash' was denied: ${message}`, ...more }) });
    const s = run([
      refused('c1', 'hook_denied', "ToolCallBefore hook returned no verdict for tool 'bash' and `continue_on_error = false` is configured: g: hook timed out", { decision: record }),
      host({ type: 'tool_call_started', id: 'c2', name: 'bash', input: {} }),
      host({ type: 'approval_required', request }),
      host({ type: 'approval_resolved', id: 'approval_c2', decision: 'deny' }),
      refused('c2', 'approval_denied', 'the user denied this call. Do not retry the same call.'),
      refused('c3', 'approval_denied', 'a permission rule (permissions.toml:3) denies this call'),
      refused('c4', 'failed', "'bash' failed: spawn sh ENOENT"),
      refused('c5', 'cancelled', 'the turn was cancelled'),
    ]);
    const heads = s.items.filter((i) => i.kind === 'tool_result').map((i) => i.lines[0]);
    expect(heads).toEqual([
      '\u2717 #1 bash denied by a tool_call_before hook \u00b7 /why 1',
      '\u2717 #2 bash denied at the approval prompt',
      '\u2717 #3 bash denied: a permission rule (permissions.toml:3) denies this call',
      '\u2717 #4 bash failed: spawn sh ENOENT',
      '\u2717 #5 bash cancelled',
    ]);
    expect(allLines(s).join('\n')).not.toMatch(/ToolCallBefore|Error:|retry|failed: '/);
    // `/why` shows the denial the model was sent, and says whose words those are.
    expect(decisionLines(s.calls[0]!)[1]).toBe("  the model was told: ToolCallBefore hook returned no verdict for tool 'bash'");
  });

  it('a failed gate leaves a line naming the hook, how it failed (exit status, command not found) and what that did', () => {
    const gate = (exitCode: number | null, detail: string) =>
      host({ type: 'hook_finished', hook: { event: 'tool_call_before', label: 'lint-gate', index: 1, total: 1, durationMs: 4, result: 'failed', detail, exitCode } });
    const s = run([gate(127, 'hook returned no verdict; ignored (continue_on_error = true)'), gate(null, 'hook timed out after 1s; the call is denied (continue_on_error = false)')]);
    expect(allLines(s)).toEqual([
      'hook lint-gate (tool_call_before) failed \u00b7 exit 127: command not found \u2014 hook returned no verdict; ignored (continue_on_error = true)',
      'hook lint-gate (tool_call_before) failed \u2014 hook timed out after 1s; the call is denied (continue_on_error = false)',
    ]);
    expect(s.items.every((i) => i.tone === 'bad')).toBe(true);
  });

  it("a tool's duration is its run; the wait for an approval is said apart", () => {
    const s = run([
      host({ type: 'tool_call_completed', outcome: outcome({ durationMs: 15, approvalWaitMs: 3240 }) }),
      host({ type: 'tool_call_completed', outcome: outcome({ id: 'c2', durationMs: 7, approvalWaitMs: 420 }) }),
    ]);
    expect(s.items.map((i) => i.lines[0])).toEqual(['\u2713 #1 bash (15 ms \u00b7 waited 3.2 s for approval)', '\u2713 #2 bash (7 ms \u00b7 waited 420 ms for approval)']);
  });

  it("a notice or a reload note names the UI's own commands (`/hooks review`), not the cli's", () => {
    const note = 'project hooks are not part of this session: pending approval \u2014 not loaded; review with `hooks review`, then `hooks approve <digest>`';
    const s = run([
      host({ type: 'notice', notice: { level: 'warning', message: note, durationMs: 6000 } }),
      host({ type: 'config_reloaded', report: { changed: false, hookCount: 0, notes: [note, 'run codewhale hooks revoke to stop them'] } }),
    ]);
    const want = 'project hooks are not part of this session: pending approval \u2014 not loaded; review with `/hooks review`, then `/hooks approve <digest>`';
    expect(s.toasts.map((t) => t.message)).toEqual([want]);
    expect(allLines(s).slice(1)).toEqual([`  ${want}`, '  run /hooks revoke to stop them']);
    // Words that only look like a command stay.
    expect(uiCommandHints('hooks are not part of this session')).toBe('hooks are not part of this session');
  });

  it('a failed sub-agent says "failed" once', () => {
    const s = run([host({ type: 'subagent_completed', agentId: 'agent_1', status: 'failed', result: 'failed: fake: HTTP 401 Unauthorized' })]);
    expect(allLines(s)).toEqual(['\u2717 agent agent_1 failed: fake: HTTP 401 Unauthorized']);
  });

  it('a provider that answered HTTP 500 is a provider error, not "network"; the turn line does not repeat it', () => {
    const failed = {
      type: 'turn_completed',
      turnId: 't',
      status: 'failed',
      error: 'fake: HTTP 500 Internal Server Error',
      errorCategory: 'network',
      usage: {},
      toolCount: 0,
      durationMs: 10,
      createdAt: new Date(),
      provider: 'p',
      model: 'm',
      text: '',
    };
    const s = run([
      host({ type: 'retry', attempt: 1, delayMs: 500, category: 'network', message: 'fake: HTTP 500 Internal Server Error', status: 500 }),
      host({ type: 'error', category: 'network', message: 'fake: HTTP 500 Internal Server Error', terminal: true, status: 500 }),
      host(failed),
    ]);
    expect(allLines(s)).toEqual(['provider error (HTTP 500): fake: HTTP 500 Internal Server Error', 'turn failed']);
    const r = run([host({ type: 'retry', attempt: 1, delayMs: 500, category: 'network', message: 'fake: HTTP 502', status: 502 })]);
    expect(r.status).toBe('retrying (1) after provider error (HTTP 502): fake: HTTP 502');
    const offline = run([host({ type: 'error', category: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9', terminal: true, status: null })]);
    expect(allLines(offline)).toEqual(['network error: connect ECONNREFUSED 127.0.0.1:9']);
  });

  it("an agent tool's result shows the sub-agent's answer, not the completion marker kept for the model", () => {
    const content = 'the answer\n<codewhale:subagent.done>{"agent_id":"agent_1","status":"completed"}</codewhale:subagent.done>';
    const s = run([host({ type: 'tool_call_completed', outcome: outcome({ name: 'agent', result: { content, success: true } }) })]);
    expect(allLines(s)).toEqual(['\u2713 #1 agent (12 ms)', '  the answer']);
    expect(s.calls[0]!.output).toBe('the answer');
  });

  it('a missing command reads "command not found" at its exit status, whatever its output', () => {
    const done = (id: string, exit_code: number, content: string) =>
      host({ type: 'tool_call_completed', outcome: outcome({ id, result: { content, success: exit_code === 0, metadata: { exit_code, status: exit_code ? 'failed' : 'completed' } } }) });
    const s = run([done('c1', 127, '[exit code: 127]'), done('c2', 126, ''), done('c3', 2, 'grep: x'), done('c4', 0, 'ok')]);
    expect(s.items.map((i) => i.lines[0])).toEqual([
      '\u2717 #1 bash (12 ms) \u00b7 exit 127: command not found',
      '\u2717 #2 bash (12 ms) \u00b7 exit 126: not executable',
      '\u2717 #3 bash (12 ms) \u00b7 exit 2',
      '\u2713 #4 bash (12 ms)',
    ]);
  });

  it('keeps quiet hook successes invisible and shows failures, blocks and rewrites with the hook name and reason', () => {
    const hook = (result: string, detail: string | null) =>
      host({ type: 'hook_finished', hook: { event: 'tool_call_before', label: 'gate\x1b[31m', index: 1, total: 1, durationMs: 5, result, detail } });
    const s = run([hook('ok', null), hook('denied', 'no \x07rm'), hook('rewrote', null)]);
    expect(allLines(s)).toEqual(['hook gate[31m (tool_call_before) denied \u2014 no rm', 'hook gate[31m (tool_call_before) rewrote the input']);
  });

  it('/why shows who asked for approval and what the person answered (a denial is not shown as allow)', () => {
    const request = { id: 'approval_c1', callId: 'c1', tool: 'bash', input: { command: 'rm x' }, reason: 'posture', summary: 'bash: rm x' };
    const s = run([
      host({ type: 'tool_call_started', id: 'c1', name: 'bash', input: { command: 'rm x' } }),
      host({ type: 'approval_required', request }),
      host({ type: 'approval_resolved', id: 'approval_c1', decision: 'deny' }),
      host({ type: 'tool_call_completed', outcome: outcome({ id: 'c1', result: null, error: { kind: 'approval_denied', message: 'the user denied this call' } }) }),
    ]);
    expect(decisionLines(s.calls[0]!)).toEqual(['#1 bash: no tool_call_before hook was consulted', '  approval: the posture asked; you denied it']);
  });

  it("a rewrite or a block by a message_submit hook leaves one line, the hook's own", () => {
    const step = (result: string, detail: string) => host({ type: 'hook_finished', hook: { event: 'message_submit', label: 'policy', index: 1, total: 1, durationMs: 3, result, detail } });
    const rewritten = run([step('rewrote', 'expanded a shortcut'), host({ type: 'message_submitted', source: 'fresh', original: 'x', text: 'y', rewritten: true })]);
    expect(allLines(rewritten)).toEqual(['hook policy (message_submit) rewrote the input \u2014 expanded a shortcut', '\u276f y']);
    const blocked = run([
      step('blocked', 'not on fridays'),
      host({ type: 'notice', notice: { level: 'warning', message: 'not on fridays', durationMs: 6000 } }),
      host({ type: 'message_blocked', source: 'fresh', original: 'deploy', reason: 'not on fridays' }),
    ]);
    expect(allLines(blocked)).toEqual(['hook policy (message_submit) blocked the message \u2014 not on fridays']);
    // Not a toast as well.
    expect(blocked.toasts).toEqual([]);
    expect(blocked.restore?.text).toBe('deploy');
  });

  it('a queued message is not a transcript line (the live queue shows it until it is sent, once)', () => {
    const s = run([host({ type: 'message_queued', text: 'and then this', queuedCount: 1 })]);
    expect(s.items).toEqual([]);
  });

  it('a blocked message leaves a line and hands its text back', () => {
    const s = run([host({ type: 'message_blocked', source: 'fresh', original: 'deploy now', reason: 'not on fridays' }, 1000)]);
    expect(allLines(s)[0]).toMatch(/blocked by a message_submit hook \u2014 not on fridays/);
    expect(s.restore?.text).toBe('deploy now');
  });

  it('a completed turn gives a summary toast; an error toast survives it and progress updates', () => {
    const s = run([
      host({ type: 'notice', notice: { level: 'error', message: 'observer queue full: turn_end dropped', durationMs: TOAST_MS.error } }, 0),
      { type: 'status', text: 'agent a1 working' },
      host(
        {
          type: 'turn_completed',
          turnId: 't',
          status: 'completed',
          error: null,
          errorCategory: null,
          usage: {},
          toolCount: 2,
          durationMs: 1500,
          createdAt: new Date(),
          provider: 'p',
          model: 'm',
          text: '',
        },
        100,
      ),
    ]);
    expect(visibleToast(s.toasts, 200)?.message).toBe('observer queue full: turn_end dropped');
    expect(s.toasts.map((t) => t.message)).toContain('\u2713 turn completed \u00b7 2 tools used \u00b7 1.5s');
    expect(visibleToast(s.toasts, 10_099)?.level).toBe('error');
    expect(visibleToast(s.toasts, 12_001)).toBeNull();
    expect(
      visibleToast(
        s.toasts.filter((t) => t.level === 'info'),
        10_099,
      )?.message,
    ).toMatch(/turn completed/);
    expect(reduceTui(s, { type: 'tick', now: 20_000 }).toasts).toEqual([]);
  });

  it('property: every streamed line is printed whole as it completes; only the line in progress stays live', () => {
    const piece = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '漢', '🐳', 'z'), { maxLength: 60 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (deltas) => {
        const s = run(deltas.map((text) => host({ type: 'text_delta', text })));
        const all = deltas.join('');
        const printed = s.items.map((i) => i.lines.join('\n'));
        expect(s.items.every((i) => i.kind === 'assistant')).toBe(true);
        expect(printed.length ? `${printed.join('\n')}\n${s.liveText}` : s.liveText).toBe(all);
        expect(s.liveText).not.toContain('\n');
        // At the end of the answer the rest is printed too: the transcript holds all of it.
        const f = reduceTui(s, host({ type: 'error', category: 'tool', message: 'x', terminal: false }));
        expect(f.liveText).toBe('');
        const lines = f.items.filter((i) => i.kind === 'assistant').map((i) => i.lines.join('\n'));
        expect(lines.join('\n').replace(/\s+/g, '')).toBe(all.replace(/\s+/g, ''));
      }),
      { numRuns: 200 },
    );
  });

  it('property: a line in progress never grows past LIVE_TEXT_MAX, and nothing is dropped', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 8 }), (sizes) => {
        const deltas = sizes.map((n, k) => String.fromCharCode(97 + k).repeat(n));
        const s = run(deltas.map((text) => host({ type: 'text_delta', text })));
        expect(s.liveText.length).toBeLessThanOrEqual(LIVE_TEXT_MAX);
        const kept = s.items.reduce((n, i) => n + i.lines.join('').length, 0) + s.liveText.length;
        expect(kept).toBe(deltas.join('').length);
      }),
      { numRuns: 50 },
    );
  });

  it('keeps every item in the list (Static counts them by position) but lets the lines of old ones go', () => {
    const n = ITEMS_KEPT + 20;
    const s = run(Array.from({ length: n }, (_, i): TuiAction => ({ type: 'item', kind: 'info', text: `item ${i}` })));
    expect(s.items).toHaveLength(n);
    expect(s.items.map((i) => i.id)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(s.items.at(-1)!.lines).toEqual([`item ${n - 1}`]);
    expect(s.items.slice(-ITEMS_KEPT).every((i) => i.lines.length === 1)).toBe(true);
    expect(s.items.slice(0, n - ITEMS_KEPT - 1).every((i) => i.lines.length === 0)).toBe(true);
  });

  it('assistant text, reasoning and user messages are never cut', () => {
    const long = `${'x'.repeat(900)} 🐳 end`;
    const many = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
    const s = run([
      host({ type: 'message_submitted', source: 'fresh', original: many, text: many, rewritten: false }),
      host({ type: 'reasoning_delta', text: many }),
      host({ type: 'text_delta', text: `${long}\n${many}` }),
      host({
        type: 'turn_completed',
        turnId: 't',
        status: 'completed',
        error: null,
        errorCategory: null,
        usage: {},
        toolCount: 0,
        durationMs: 1,
        createdAt: new Date(),
        provider: 'p',
        model: 'm',
        text: '',
      }),
    ]);
    const of = (k: string) => s.items.filter((i) => i.kind === k).flatMap((i) => i.lines);
    expect(of('user')).toHaveLength(300);
    expect(of('user').at(-1)).toBe('  line 299');
    expect(of('reasoning')).toEqual(many.split('\n'));
    expect(of('assistant')).toEqual([long, ...many.split('\n')]);
  });

  it('keeps the decision record of each call for /why', () => {
    const decision: GateDecisionRecord = {
      schemaVersion: 1,
      tool: 'bash',
      callId: 'call_1',
      decision: 'allow',
      denyKind: null,
      message: null,
      updatedInput: { command: 'ls -l' },
      additionalContext: null,
      hooks: [
        {
          index: 0,
          label: 'rewrite',
          source: 'global',
          strict: false,
          background: false,
          outcome: 'allow' as never,
          detail: null,
          exitCode: 0,
          durationMs: 3,
          rewroteInput: true,
          addedContext: false,
        },
      ],
      input: { original: '{"command":"ls"}', rewritten: '{"command":"ls -l"}' },
      hookSetDigest: null,
    };
    const s = run([
      host({ type: 'tool_call_started', id: 'call_1', name: 'bash', input: { command: 'ls' } }),
      // As the host reports a gate's rewrite: one hook_finished, then the call's outcome.
      host({ type: 'hook_finished', hook: { event: 'tool_call_before', label: 'rewrite', index: 1, total: 1, durationMs: 3, result: 'rewrote', detail: 'adds -l' } }),
      host({ type: 'tool_call_completed', outcome: outcome({ decision }) }),
    ]);
    // The rewrite is said once, by the hook's own line; the result does not repeat it.
    expect(allLines(s).slice(0, 3)).toEqual(['\u25b8 #1 bash: ls', 'hook rewrite (tool_call_before) rewrote the input \u2014 adds -l', '\u2713 #1 bash (12 ms) \u00b7 /why 1']);
    expect(
      allLines(s)
        .join('\n')
        .match(/rewrote the input|rewritten/g),
    ).toHaveLength(1);
    const lines = decisionLines(s.calls[0]!);
    expect(lines[0]).toBe('#1 bash: allow');
    expect(lines.join('\n')).toMatch(/1\. rewrite \[global\] allow exit 0 3 ms \(rewrote input\)/);
    expect(lines.join('\n')).toMatch(/rewritten: \{"command":"ls -l"\}/);
  });
});
