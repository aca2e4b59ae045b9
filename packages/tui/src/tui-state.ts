import { errorLabel, type HostEvent, type HookActivityEnd } from '@codewhale/engine';
import { withoutSubagentMarker } from '@codewhale/engine/internal';
import type { GateDecisionRecord } from '@codewhale/hooks-payloads';
import { cutText, cutToolOutput, oneLine, proseLines, DEFAULT_CUT, type CutLimits } from './text-bounds.js';

/** A finished transcript entry (rendered once, in Ink's `<Static>`). */
export interface TranscriptItem {
  readonly id: number;
  readonly kind: 'user' | 'assistant' | 'reasoning' | 'tool' | 'tool_result' | 'hook' | 'error' | 'info' | 'output' | 'notice';
  /** Display lines: already control-stripped and bounded. */
  readonly lines: readonly string[];
  /** Dimmed / highlighted display. */
  readonly tone?: 'dim' | 'ok' | 'bad' | 'warn';
}

export interface Toast {
  readonly id: number;
  readonly level: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly expiresAt: number;
}

export interface ToolCallView {
  readonly n: number;
  readonly callId: string;
  readonly tool: string;
  readonly decision: GateDecisionRecord | null;
  /** The whole output as the agent kept it (`/expand n`); `null` once older than {@link OUTPUTS_KEPT} calls. */
  readonly output: string | null;
  /** The approval asked for the call (why) and the person's answer, once given. */
  readonly approval?: { readonly reason: 'posture' | 'hook' | 'permission'; readonly answer: 'allow' | 'allow_session' | 'deny' | null };
}

/** Tool calls whose whole output is kept for `/expand`. */
export const OUTPUTS_KEPT = 50;

/** Everything the TUI shows that is not in the host's snapshot. */
export interface TuiState {
  readonly items: readonly TranscriptItem[];
  readonly nextId: number;
  /**
   * The assistant text and reasoning streaming right now that is not printed yet: the
   * paragraph in progress. Each finished line moves into the transcript as it completes.
   */
  readonly liveText: string;
  readonly liveReasoning: string;
  readonly toasts: readonly Toast[];
  /** A transient progress line (retries, sub-agent progress); toasts never share it. */
  readonly status: string | null;
  /** Tool calls in order (`#n`), with their decision records for `/why`. */
  readonly calls: readonly ToolCallView[];
  /** Text a blocked message hands back to the composer (consumed by the composer). */
  readonly restore: { readonly id: number; readonly text: string } | null;
}

export const INITIAL_STATE: TuiState = { items: [], nextId: 1, liveText: '', liveReasoning: '', toasts: [], status: null, calls: [], restore: null };

export const TOAST_MS = { error: 12_000, warning: 6_000, info: 10_000 } as const;
/** A paragraph in progress longer than this is printed as it stands and continues on a new line. */
export const LIVE_TEXT_MAX = 64 * 1024;
/**
 * Finished items whose lines are kept in memory. Older ones are already in the terminal's
 * scrollback; they stay in the list (Ink's `<Static>` counts items by position) with no lines.
 */
export const ITEMS_KEPT = 500;

export type TuiAction =
  | { readonly type: 'host'; readonly event: HostEvent; readonly now: number }
  /** `cut: null` prints the text whole. */
  | { readonly type: 'item'; readonly kind: TranscriptItem['kind']; readonly text: string; readonly tone?: TranscriptItem['tone']; readonly cut?: CutLimits | null }
  | { readonly type: 'toast'; readonly level: Toast['level']; readonly message: string; readonly durationMs?: number; readonly now: number }
  | { readonly type: 'tick'; readonly now: number }
  | { readonly type: 'status'; readonly text: string | null };

const NO_LINES: readonly string[] = [];

function addItem(s: TuiState, kind: TranscriptItem['kind'], lines: readonly string[], tone?: TranscriptItem['tone']): TuiState {
  const item: TranscriptItem = tone ? { id: s.nextId, kind, lines, tone } : { id: s.nextId, kind, lines };
  const items = [...s.items, item];
  // The list only grows (its length is how `<Static>` knows what is new); old lines are let go.
  const old = items.length - 1 - ITEMS_KEPT;
  if (old >= 0 && items[old]!.lines.length) items[old] = { ...items[old]!, lines: NO_LINES };
  return { ...s, items, nextId: s.nextId + 1 };
}

function addToast(s: TuiState, level: Toast['level'], message: string, durationMs: number, now: number): TuiState {
  const toast: Toast = { id: s.nextId, level, message: oneLine(message, 300), expiresAt: now + durationMs };
  return { ...s, toasts: [...s.toasts.filter((t) => t.expiresAt > now), toast].slice(-8), nextId: s.nextId + 1 };
}

/** Move the rest of the streamed text (and reasoning) into finished transcript items, whole. */
export function flushLive(s: TuiState): TuiState {
  let out = s;
  if (s.liveReasoning.trim()) out = addItem(out, 'reasoning', proseLines(s.liveReasoning), 'dim');
  if (s.liveText.trim()) out = addItem(out, 'assistant', proseLines(s.liveText));
  return s.liveText === '' && s.liveReasoning === '' ? out : { ...out, liveText: '', liveReasoning: '' };
}

/**
 * Append streamed text; every line it completes is printed (a transcript item) and only the
 * line in progress stays live. Nothing is dropped: a line in progress past
 * {@link LIVE_TEXT_MAX} is printed as it stands.
 */
function stream(s: TuiState, which: 'text' | 'reasoning', more: string): TuiState {
  let out = s;
  // Text after reasoning: the reasoning is finished.
  if (which === 'text' && s.liveReasoning) out = s.liveReasoning.trim() ? addItem({ ...out, liveReasoning: '' }, 'reasoning', proseLines(s.liveReasoning), 'dim') : { ...out, liveReasoning: '' };
  const acc = (which === 'text' ? out.liveText : out.liveReasoning) + more;
  const nl = acc.lastIndexOf('\n');
  let done = nl >= 0 ? acc.slice(0, nl) : null;
  let rest = nl >= 0 ? acc.slice(nl + 1) : acc;
  if (rest.length > LIVE_TEXT_MAX) {
    done = done === null ? rest : `${done}\n${rest}`;
    rest = '';
  }
  if (done !== null) out = addItem(out, which === 'text' ? 'assistant' : 'reasoning', proseLines(done), which === 'text' ? undefined : 'dim');
  return which === 'text' ? { ...out, liveText: rest } : { ...out, liveReasoning: rest };
}

/**
 * A shell command's non-zero exit status as it reads in a tool result's head line, with the
 * shell's own meaning of 126 and 127 (the output may be empty, or hidden by the cut). Pure.
 */
export function exitNote(code: unknown): string {
  if (typeof code !== 'number' || code === 0) return '';
  return ` \u00b7 exit ${code}${code === 127 ? ': command not found' : code === 126 ? ': not executable' : ''}`;
}

/** The time a call waited for its approval, apart from its run time (` · waited 3.2 s for approval`). Pure. */
export function waitNote(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  return ` \u00b7 waited ${ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`} for approval`;
}

/**
 * A hint as it reads inside the UI: the cli's and the hooks library's hints name `codewhale
 * hooks approve` or `` `hooks review` ``; here the same command is `/hooks approve`. Pure.
 */
export function uiCommandHints(text: string): string {
  return text.replace(/\bcodewhale hooks (list|events|review|approve|revoke|test|validate)\b/g, '/hooks $1').replace(/`hooks (list|events|review|approve|revoke|test|validate)\b/g, '`/hooks $1');
}

/** A short, safe one-line summary of a tool input (`bash: ls -la`, `write: src/a.ts`). */
export function inputSummary(tool: string, input: unknown): string {
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    for (const key of ['command', 'path', 'file_path', 'pattern', 'prompt', 'query']) {
      if (typeof o[key] === 'string') return oneLine(`${tool}: ${o[key] as string}`, 160);
    }
  }
  let json = '';
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = '…';
  }
  return oneLine(`${tool} ${json.slice(0, 400)}`, 160);
}

function hookLine(h: HookActivityEnd): string {
  const what =
    h.result === 'failed'
      ? 'failed'
      : h.result === 'blocked'
        ? 'blocked the message'
        : h.result === 'denied'
          ? 'denied'
          : h.result === 'asked'
            ? 'asked for approval'
            : h.result === 'rewrote'
              ? 'rewrote the input'
              : h.result === 'context'
                ? 'added context'
                : 'ok';
  const exit = h.result === 'failed' ? exitNote(h.exitCode) : '';
  const detail = h.detail ? ` \u2014 ${oneLine(h.detail, 300)}` : '';
  return `hook ${oneLine(h.label, 64)} (${h.event}) ${what}${exit}${detail}`;
}

/**
 * Why a call did not run (or could not), as a person reads it. The engine's error text is
 * written for the model (`ToolCallBefore hook denied tool …`, "do not retry"); the line says
 * who refused, and the hook's own line above and `/why` say why.
 */
function refusalText(name: string, error: { readonly kind: string; readonly message: string }, approval: ToolCallView['approval']): string {
  switch (error.kind) {
    case 'hook_denied':
      return 'denied by a tool_call_before hook';
    case 'approval_denied':
      // Asked and answered "no" (or the prompt was withdrawn); otherwise a rule or the posture refused.
      return approval ? 'denied at the approval prompt' : `denied: ${oneLine(error.message, 300)}`;
    case 'cancelled':
      return 'cancelled';
    case 'failed': {
      const prefix = `'${name}' failed: `;
      return `failed: ${oneLine(error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message, 300)}`;
    }
    default:
      return `${error.kind}: ${oneLine(error.message, 300)}`;
  }
}

/** Pure reducer: host events and UI actions → what the transcript, toasts and status show. */
export function reduceTui(s: TuiState, a: TuiAction): TuiState {
  switch (a.type) {
    case 'item':
      return addItem(
        a.kind === 'assistant' || a.kind === 'reasoning' ? s : flushLive(s),
        a.kind,
        a.cut === null ? proseLines(a.text) : cutText(a.text, a.cut ?? { ...DEFAULT_CUT, headLines: 60, tailLines: 20 }).lines,
        a.tone,
      );
    case 'toast':
      return addToast(s, a.level, a.message, a.durationMs ?? TOAST_MS[a.level], a.now);
    case 'tick': {
      const toasts = s.toasts.filter((t) => t.expiresAt > a.now);
      return toasts.length === s.toasts.length ? s : { ...s, toasts };
    }
    case 'status':
      return s.status === a.text ? s : { ...s, status: a.text === null ? null : oneLine(a.text, 200) };
    case 'host':
      return reduceHost(s, a.event, a.now);
  }
}

function reduceHost(s: TuiState, e: HostEvent, now: number): TuiState {
  switch (e.type) {
    case 'text_delta':
      return stream(s, 'text', e.text);
    case 'reasoning_delta':
      return stream(s, 'reasoning', e.text);
    case 'turn_started':
      return { ...s, status: null };
    case 'retry':
      return { ...s, status: oneLine(`retrying (${e.attempt}) after ${errorLabel(e.category, e.status)}: ${e.message}`, 200) };
    case 'approval_required': {
      const r = e.request;
      const approval = { reason: r.reason, answer: null };
      const known = s.calls.some((c) => c.callId === r.callId);
      return { ...s, calls: known ? s.calls.map((c) => (c.callId === r.callId ? { ...c, approval } : c)) : s.calls };
    }
    case 'approval_resolved': {
      const callId = e.id.replace(/^approval_/, '');
      return { ...s, calls: s.calls.map((c) => (c.callId === callId && c.approval ? { ...c, approval: { ...c.approval, answer: e.decision } } : c)) };
    }
    case 'tool_call_started': {
      const f = flushLive(s);
      const n = f.calls.length + 1;
      const calls = [...f.calls, { n, callId: e.id, tool: e.name, decision: null, output: null }].slice(-1000);
      return addItem({ ...f, calls }, 'tool', [`\u25b8 #${n} ${inputSummary(e.name, e.input)}`]);
    }
    case 'tool_call_completed': {
      const o = e.outcome;
      const known = s.calls.find((c) => c.callId === o.id);
      const output = o.result ? withoutSubagentMarker(o.result.content) : null;
      let calls = known
        ? s.calls.map((c) => (c.callId === o.id ? { ...c, decision: o.decision, output } : c))
        : [...s.calls, { n: s.calls.length + 1, callId: o.id, tool: o.name, decision: o.decision, output }];
      const n = known?.n ?? calls.length;
      // Only the latest calls keep their whole output.
      const old = calls.length - 1 - OUTPUTS_KEPT;
      if (old >= 0 && calls[old]!.output !== null) calls = calls.map((c, i) => (i <= old && c.output !== null ? { ...c, output: null } : c));
      const ok = o.error === null && (o.result?.success ?? true);
      const head = o.error
        ? `\u2717 #${n} ${o.name} ${refusalText(o.name, o.error, known?.approval)}${o.decision ? ` \u00b7 /why ${n}` : ''}`
        : `${ok ? '\u2713' : '\u2717'} #${n} ${o.name} (${Math.round(o.durationMs)} ms${waitNote(o.approvalWaitMs)})${exitNote(o.result?.metadata?.exit_code)}${o.decision ? ` \u00b7 /why ${n}` : ''}`;
      const omitted = o.result?.metadata?.omitted_lines;
      const cut = output !== null ? cutToolOutput(output, typeof omitted === 'number' ? omitted : null, { ...DEFAULT_CUT, maxChars: 32 * 1024 }) : null;
      const body = cut ? cut.lines.map((l) => `  ${l}`) : [];
      const headLine = cut?.cut ? `${head} \u00b7 /expand ${n}` : head;
      return addItem({ ...flushLive(s), calls }, 'tool_result', [headLine, ...body], ok ? 'ok' : 'bad');
    }
    case 'hook_finished':
      // A quiet success leaves no trace. A gate's rewrite is said here, once, with the hook's
      // name and reason, just before the call's result (which does not repeat it).
      if (e.hook.result === 'ok') return s;
      return addItem(flushLive(s), 'hook', [hookLine(e.hook)], e.hook.result === 'failed' || e.hook.result === 'denied' || e.hook.result === 'blocked' ? 'bad' : 'warn');
    case 'message_submitted': {
      const lines = proseLines(e.text).map((l, i) => (i === 0 ? `\u276f ${l}` : `  ${l}`));
      // (A rewrite already has its line: the hook's, naming it.)
      return addItem(flushLive(s), 'user', lines);
    }
    case 'message_blocked': {
      // One line: the blocking hook's own (its name and reason) when it has one, else this.
      const last = s.items.at(-1);
      const said = last?.kind === 'hook' && /\(message_submit\) blocked the message/.test(last.lines[0] ?? '');
      const f = said ? flushLive(s) : addItem(flushLive(s), 'hook', [`message blocked by a message_submit hook \u2014 ${oneLine(e.reason, 300)}`], 'bad');
      // The host also posts the reason as a notice (for surfaces with no transcript): here the line says it.
      const toast = oneLine(uiCommandHints(e.reason), 300);
      return { ...f, toasts: f.toasts.filter((t) => t.message !== toast), restore: { id: s.nextId, text: e.original } };
    }
    case 'message_queued':
      // Shown once: in the live region's queue until it is sent, then as the message itself.
      return s;
    case 'notice':
      return addToast(s, e.notice.level, uiCommandHints(e.notice.message), e.notice.durationMs, now);
    case 'error':
      return addItem(flushLive(s), 'error', [`${errorLabel(e.category, e.status)}: ${oneLine(e.message, 500)}`], 'bad');
    case 'mode_changed':
      return addItem(s, 'info', [`mode: ${e.from} \u2192 ${e.to}`], 'dim');
    case 'subagent_spawned':
      return addItem(flushLive(s), 'info', [`\u25cf agent ${oneLine(e.name ?? e.agentId, 64)} started: ${oneLine(e.prompt, 120)}`], 'dim');
    case 'subagent_completed': {
      // A failed agent's result starts with its status (`failed: …`, as the model reads it): said once.
      const result = e.result.startsWith(`${e.status}: `) ? e.result.slice(e.status.length + 2) : e.result;
      return addItem(s, 'info', [`${e.status === 'completed' ? '\u25cb' : '\u2717'} agent ${oneLine(e.agentId, 64)} ${oneLine(e.status, 20)}: ${oneLine(result, 160)}`], 'dim');
    }
    case 'config_reloaded': {
      const hooks = `${e.report.hookCount} hook${e.report.hookCount === 1 ? '' : 's'}`;
      const lines = [
        e.report.failed ? `configuration not reloaded: the ${hooks} loaded before stay` : `configuration reloaded: ${hooks}${e.report.changed ? ' (changed)' : ''}`,
        ...e.report.notes.map((n) => `  ${oneLine(uiCommandHints(n), 300)}`),
      ];
      return addItem(s, 'notice', lines, e.report.failed ? 'bad' : e.report.notes.length ? 'warn' : 'dim');
    }
    case 'turn_completed': {
      const f = flushLive(s);
      const secs = (e.durationMs / 1000).toFixed(1);
      if (e.status === 'completed')
        return { ...addToast(f, 'info', `\u2713 turn completed \u00b7 ${e.toolCount} tool${e.toolCount === 1 ? '' : 's'} used \u00b7 ${secs}s`, TOAST_MS.info, now), status: null };
      // The error's own line, just above, already says what failed: not twice.
      const said = e.error !== null && f.items.at(-1)?.kind === 'error';
      const why = e.error && !said ? `: ${oneLine(e.error, 300)}` : '';
      return { ...addItem(f, e.status === 'failed' ? 'error' : 'info', [`turn ${e.status}${why}`], e.status === 'failed' ? 'bad' : 'dim'), status: null };
    }
    default:
      return s;
  }
}

function approvalLine(a: NonNullable<ToolCallView['approval']>): string {
  const who = a.reason === 'hook' ? 'a hook asked' : a.reason === 'permission' ? 'a permissions rule asked' : 'the posture asked';
  const answer = a.answer === null ? 'no answer yet' : a.answer === 'deny' ? 'you denied it' : a.answer === 'allow_session' ? 'you allowed the tool for the session' : 'you allowed it once';
  return `  approval: ${who}; ${answer}`;
}

/** The decision record of call `#n`, as display lines (for `/why`). */
export function decisionLines(call: ToolCallView): string[] {
  const d = call.decision;
  if (!d) return [`#${call.n} ${call.tool}: no tool_call_before hook was consulted`, ...(call.approval ? [approvalLine(call.approval)] : [])];
  const lines = [`#${call.n} ${oneLine(d.tool, 64)}: ${d.decision}${d.denyKind ? ` (${d.denyKind})` : ''}`];
  // The denial text is the model's (it names the hook API as the model knows it): said as such.
  if (d.message) lines.push(`  the model was told: ${oneLine(d.message, 400)}`);
  for (const h of d.hooks) {
    const flags = [h.strict ? 'strict' : null, h.background ? 'background' : null, h.rewroteInput ? 'rewrote input' : null, h.addedContext ? 'added context' : null].filter(Boolean).join(', ');
    lines.push(
      `  ${h.index + 1}. ${oneLine(h.label, 64)} [${h.source}] ${h.outcome}${h.exitCode !== null ? ` exit ${h.exitCode}` : ''} ${Math.round(h.durationMs)} ms${flags ? ` (${flags})` : ''}${h.detail ? ` \u2014 ${oneLine(h.detail, 200)}` : ''}`,
    );
    if (h.peer) lines.push(`     ${h.peer.protocol} answer: ${oneLine(h.peer.answer, 300)}`, ...h.peer.warnings.map((w) => `     ignored: ${oneLine(w, 200)}`));
  }
  if (d.hooks.length === 0) lines.push('  no hook matched');
  lines.push(`  input: ${oneLine(d.input.original, 300)}`);
  if (d.input.peer !== undefined) lines.push(`  claude-code hooks were given: ${oneLine(d.input.peer, 600)}`);
  if (d.input.rewritten !== null) lines.push(`  rewritten: ${oneLine(d.input.rewritten, 300)}`);
  if (d.additionalContext) lines.push(`  context: ${oneLine(d.additionalContext, 300)}`);
  if (call.approval) lines.push(approvalLine(call.approval));
  return lines;
}

/** The toast to show now: the newest error first, then the newest warning, then info. */
export function visibleToast(toasts: readonly Toast[], now: number): Toast | null {
  const live = toasts.filter((t) => t.expiresAt > now);
  for (const level of ['error', 'warning', 'info'] as const) {
    const t = live.filter((x) => x.level === level).pop();
    if (t) return t;
  }
  return null;
}
