import { BUILTIN_TOOLS, parseMode } from '@codewhale/engine';
import {
  buildHookEnv,
  buildMessageSubmitDocument,
  engineModeSpelling,
  eventSpec,
  outcomeDetail,
  sanitizeText,
  uiModeLabel,
  type CanonicalMode,
  type GateDecisionRecord,
  type GateHookRecord,
  type HookContext,
  type HookEventName,
  type WaitingReason,
} from '@codewhale/hooks-payloads';
import { toolCategory } from '@codewhale/hooks-conditions';
import { CliError } from '../cli-error.js';
import { commandContext } from '../context.js';
import { buildPeerDocument, gateDecisionToJson as gateDecisionJson, gateHookToJson as gateHookJson, peerDocumentForRecord, redactSecrets } from '@codewhale/hooks-payloads';
import {
  planNotes,
  configurationNotes,
  diagnosticsJson,
  diagnosticsLines,
  endDryRun,
  hookName,
  matchTable,
  matchTableJson,
  outcomeText,
  parseEvent,
  parseInputOption,
  parseModeOption,
  startDryRun,
  timing,
  type DryRun,
  type HookMatch,
} from '../dry-run.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import { jsonPreview, line, plural, printJson } from '../render.js';
import { syntheticObserverEvent } from '../synthetic-event.js';
import { checkExpect, type HooksTestOptions } from './hooks-test-options.js';

const WAITING_REASONS: readonly WaitingReason[] = ['approval', 'user_input', 'goal_continuation'];

/** The options each event reads; any other option given is reported as unused. */
const USES: Record<HookEventName, readonly (keyof HooksTestOptions)[]> = {
  session_start: ['mode'],
  session_end: ['mode'],
  turn_end: ['mode', 'error'],
  message_submit: ['mode', 'text'],
  tool_call_before: ['mode', 'tool', 'input'],
  tool_call_after: ['mode', 'tool', 'input', 'text', 'exitCode', 'error'],
  mode_change: ['mode'],
  on_error: ['mode', 'tool', 'input', 'text', 'exitCode', 'error'],
  subagent_spawn: ['mode', 'text'],
  subagent_complete: ['mode', 'text', 'error'],
  shell_env: ['tool', 'input', 'showValues'],
  session_idle: ['mode', 'error'],
  session_error: ['mode', 'error'],
  waiting_for_user: ['mode', 'reason'],
  session_busy: ['mode'],
};

const FLAG: Partial<Record<keyof HooksTestOptions, string>> = {
  tool: '--tool',
  input: '--input',
  text: '--text',
  mode: '--mode',
  exitCode: '--exit-code',
  error: '--error',
  reason: '--reason',
  showValues: '--show-values',
};

/** One simulated firing, ready to print. */
interface Report {
  readonly steering: string;
  readonly context: Record<string, unknown>;
  readonly contextLines: readonly string[];
  readonly hookCtx: HookContext;
  readonly stdin: string | null;
  readonly table: readonly HookMatch[];
  /** Text per matched hook, by index. */
  readonly rows: ReadonlyMap<number, string>;
  readonly outcomes: readonly unknown[];
  readonly resultLines: readonly string[];
  readonly result: unknown;
  /** The value `--expect` compares. */
  readonly actual: string | null;
  readonly notes: readonly string[];
}

/**
 * `codewhale hooks test EVENT`: simulate one firing of EVENT through the real loader, matcher,
 * runner, parser and fold, with a synthetic context. The hooks run for real; nothing else does
 * (no tool, no model, no message). Prints which hooks matched and why the others did not,
 * each outcome and the final result. `--expect` makes it a policy check (exit 1 on mismatch).
 * `--replay FILE` replays a recorded session's tool calls instead.
 */
export async function runHooksTest(eventArg: string | undefined, opts: HooksTestOptions, io: Io): Promise<number> {
  if (opts.replay !== undefined) {
    if (eventArg !== undefined && eventArg !== 'tool_call_before') {
      throw CliError.usage('--replay replays recorded tool calls through tool_call_before', 'drop the event name (or name tool_call_before)');
    }
    const { runHooksTestReplay } = await import('./hooks-test-replay.js');
    return runHooksTestReplay(opts.replay, opts, io);
  }
  if (eventArg === undefined) {
    throw CliError.usage(
      'name the event to simulate, or pass --replay FILE',
      'e.g. `codewhale hooks test tool_call_before --tool bash --input \'{"command":"ls"}\'`; `codewhale hooks events` lists the events',
    );
  }
  const event = parseEvent(eventArg);
  const expected = checkExpect(event, opts.expect);
  const uses = USES[event];
  for (const [key, flag] of Object.entries(FLAG) as [keyof HooksTestOptions, string][]) {
    if (opts[key] !== undefined && !uses.includes(key)) io.stderr(`note: ${flag} is not used by ${event}\n`);
  }
  if ((event === 'tool_call_before' || event === 'tool_call_after') && !opts.tool) {
    throw CliError.usage(`${event} needs --tool NAME`, `e.g. codewhale hooks test ${event} --tool bash --input '{"command":"ls"}'`);
  }
  if (event === 'message_submit' && opts.text === undefined) throw CliError.usage('message_submit needs --text TEXT (the submitted message)');
  let reason: WaitingReason = 'approval';
  if (opts.reason !== undefined && event === 'waiting_for_user') {
    if (!(WAITING_REASONS as readonly string[]).includes(opts.reason)) throw CliError.usage(`--reason is one of ${WAITING_REASONS.join(', ')}, got \`${line(opts.reason, 48)}\``);
    reason = opts.reason as WaitingReason;
  }
  const mode = parseModeOption(opts.mode, event === 'mode_change' ? 'plan' : 'work', parseMode);
  const input = parseInputOption(opts.input, io);

  const ctx = commandContext(opts, io);
  const run = startDryRun(ctx, io);
  let report: Report;
  try {
    switch (event) {
      case 'tool_call_before':
        report = await toolCallBefore(run, ctx.workspace, opts.tool!, input ?? {}, mode);
        break;
      case 'message_submit':
        report = await messageSubmit(run, ctx.workspace, opts.text!, mode);
        break;
      case 'shell_env':
        // The shell tool stamps `exec_shell` on the shell_env context whatever spelling the
        // model used, so the dry run does too (conditions treat the three spellings as aliases).
        if (opts.tool !== undefined && opts.tool !== 'exec_shell') {
          io.stderr(`note: shell_env hooks always see DEEPSEEK_TOOL_NAME=exec_shell (the shell tool stamps it); --tool ${line(opts.tool, 48)} is not used\n`);
        }
        report = await shellEnv(run, 'exec_shell', input ?? {}, Boolean(opts.showValues));
        break;
      default:
        report = await observer(run, event, {
          workspace: ctx.workspace,
          mode,
          tool: opts.tool ?? null,
          input: input ?? {},
          text: opts.text ?? null,
          exitCode: opts.exitCode ?? null,
          error: opts.error ?? null,
          reason,
        });
    }
  } finally {
    await endDryRun(run);
  }

  const met = expected === null ? null : report.actual === expected;
  const notes = [...report.notes, ...configurationNotes(run.config)];
  if (opts.json) {
    printJson(io, {
      schema_version: 1,
      event,
      steering: report.steering,
      dry_run: true,
      enabled: run.config.loaded.set.enabled,
      hook_set_digest: run.config.digest,
      context: report.context,
      env: buildHookEnv(report.hookCtx),
      stdin_document: report.stdin === null ? null : JSON.parse(report.stdin),
      hooks: matchTableJson(report.table),
      outcomes: report.outcomes,
      result: report.result,
      expectation: expected === null ? null : { expected, actual: report.actual, met },
      notes,
      diagnostics: diagnosticsJson(run.logger),
    });
  } else {
    io.stdout(renderReport(event, report, run, notes, expected, met));
  }
  if (met === false) {
    io.stderr(`expectation failed: expected \`${expected}\`, got \`${report.actual}\`\n`);
    return EXIT.failure;
  }
  return EXIT.ok;
}

function renderReport(event: HookEventName, r: Report, run: DryRun, notes: readonly string[], expected: string | null, met: boolean | null): string {
  const out: string[] = [];
  const nothing = event === 'tool_call_before' ? 'the tool call does not' : event === 'shell_env' ? 'no shell command does' : event === 'message_submit' ? 'nothing is sent' : 'nothing else does';
  out.push(`Dry run of \`${event}\` (${r.steering}): the hooks run for real; ${nothing}.`);
  out.push(...r.contextLines);
  const env = Object.keys(buildHookEnv(r.hookCtx)).filter((k) => k.startsWith('DEEPSEEK_'));
  out.push(`env: ${env.length ? env.join(', ') : '(none)'}`);
  out.push(`stdin: ${r.stdin === null ? 'none (EOF at once)' : line(r.stdin, 70_000)}`);
  if (r.table.some((m) => m.matched && m.hook.protocol === 'claude-code')) out.push('  (claude-code hooks are given their own document instead: `claude-code hooks were given` below)');
  out.push('');
  const set = run.config.loaded.set;
  const matched = r.table.filter((m) => m.matched).length;
  if (set.hooks.length === 0) out.push('hooks: none loaded');
  else {
    out.push(`hooks: ${matched} matched, ${r.table.length - matched} not matched${set.enabled ? '' : ' (hooks are globally disabled: `[hooks].enabled = false`)'}`);
    for (const m of r.table) {
      out.push(`  - ${hookName(m.hook)}: ${m.matched ? (r.rows.get(m.hook.index) ?? 'not run') : `not matched \u2014 ${m.reason}`}`);
    }
  }
  out.push('', ...r.resultLines);
  out.push(`  hook set digest: ${run.config.digest}`);
  if (expected !== null) out.push(`  expect: ${expected} \u2014 ${met ? 'ok' : `MISMATCH (got ${r.actual})`}`);
  if (notes.length) out.push('', 'notes:', ...notes.map((n) => `  - ${line(n, 600)}`));
  const diagnostics = diagnosticsLines(run.logger);
  if (diagnostics.length) out.push('', 'log:', ...diagnostics);
  return `${out.join('\n')}\n`;
}

function contextBase(run: DryRun, workspace: string, modeShown: string | null): { json: Record<string, unknown>; text: string } {
  const json: Record<string, unknown> = { session_id: run.runtime.sessionId, workspace, model: run.model };
  if (modeShown !== null) json.mode = modeShown;
  const parts = [...(modeShown !== null ? [`mode ${modeShown}`] : []), `model ${run.model}`, `session ${run.runtime.sessionId}`];
  return { json, text: parts.join(', ') };
}

const CALL_ID = 'call_hooks_test_1';

/** One decision-record row in words. */
export function gateRowText(h: GateHookRecord): string {
  let s: string;
  switch (h.outcome) {
    case 'submitted':
      return 'submitted in the background (never awaited, so it cannot steer)';
    case 'skipped':
      return `not run \u2014 ${h.detail ?? 'an earlier strict hook failed'}`;
    case 'allow':
    case 'ask':
      s = h.outcome;
      break;
    case 'deny':
      s = `deny \u2014 ${h.detail ?? 'no reason given'}`;
      break;
    case 'deny_exit_2':
      s = `deny (exit 2) \u2014 ${h.detail ?? 'no structured reason'}`;
      break;
    case 'no_decision':
      s = 'no decision (allow)';
      break;
    case 'no_verdict':
      // Details such as `no verdict: output exceeded 64 KiB` already say it: do not repeat it.
      s = `no verdict \u2014 ${(h.detail ?? 'hook returned no verdict').replace(/^no verdict: /, '')}${h.strict ? ' (strict: the call is denied)' : ' (lenient: warned, not denied)'}`;
      break;
  }
  const extras = [h.rewroteInput ? 'rewrote the input' : null, h.addedContext ? 'added context' : null].filter(Boolean);
  return `${s}${extras.length ? `; ${extras.join(', ')}` : ''} ${timing(h.exitCode, h.durationMs)}${peerLines(h.peer)}`;
}

/** A peer-protocol hook's answer (already bounded and redacted) and what of it was ignored, as indented lines. */
function peerLines(peer: { readonly protocol: string; readonly answer: string; readonly warnings: readonly string[] } | undefined): string {
  if (!peer) return '';
  return [`\n      ${peer.protocol} answer: ${line(peer.answer)}`, ...peer.warnings.map((w) => `\n      ignored: ${line(w)}`)].join('');
}

const DENY_KIND: Record<string, string> = { no_verdict: 'a strict hook gave no verdict', exit_2: 'exit 2', json_deny: 'JSON `deny`' };

/** The final decision in words. */
export function decisionLines(d: GateDecisionRecord, matched: number): string[] {
  const out: string[] = [];
  if (d.decision === 'deny') {
    if (d.input.peer !== undefined) out.push(`  claude-code hooks were given: ${line(d.input.peer)}`);
    out.push(`result: deny (${DENY_KIND[d.denyKind ?? ''] ?? 'denied'})`, `  message: ${line(d.message ?? '')}`);
    return out;
  }
  if (d.input.peer !== undefined) out.push(`  claude-code hooks were given: ${line(d.input.peer)}`);
  out.push(`result: ${d.decision}${matched === 0 ? ' (no hook matched)' : ''}`);
  if (d.decision === 'ask') out.push('  the approval prompt opens in Ask and Auto-Review; Full Access does not prompt; `exec --hooks` denies');
  if (d.input.rewritten !== null) out.push(`  input rewritten to: ${d.input.rewritten}`, `  original input:     ${d.input.original}`);
  if (d.additionalContext !== null) {
    const [first, ...rest] = d.additionalContext.split('\n');
    out.push(`  additional context: ${line(first ?? '')}`, ...rest.map((l) => `                      ${line(l)}`));
  }
  return out;
}

async function toolCallBefore(run: DryRun, workspace: string, tool: string, raw: Record<string, unknown>, mode: CanonicalMode): Promise<Report> {
  const engineMode = engineModeSpelling(mode);
  // The call goes through the session's own gate chain (planToolCall): the decision cannot drift from a real run.
  const dry = await run.harness.planCall({ id: CALL_ID, name: tool, input: raw, mode });
  const record = dry.decision;
  const input = preparedOrRaw(tool, raw);
  const hookCtx: HookContext = {
    event: 'tool_call_before',
    sessionId: run.runtime.sessionId,
    workspace,
    model: run.model,
    mode: engineMode,
    tool: { name: tool, callId: CALL_ID, input },
  };
  const table = matchTable(run.config.loaded.set, hookCtx);
  const notes = planNotes(tool, dry);
  const base = contextBase(run, workspace, engineMode);
  const category = toolCategory(tool, input);
  return {
    steering: 'gate',
    context: { ...base.json, tool, tool_category: category, call_id: CALL_ID, input },
    contextLines: [`context: tool \`${line(tool, 64)}\` (category ${category}), ${base.text}, call ${CALL_ID}`, `input: ${jsonPreview(input, 400)}`],
    hookCtx,
    stdin: null,
    table,
    rows: new Map(record.hooks.map((h) => [h.index, gateRowText(h)])),
    outcomes: record.hooks.map(gateHookJson),
    resultLines: decisionLines(record, table.filter((m) => m.matched).length),
    result: gateDecisionJson(record),
    actual: dry.effective,
    notes,
  };
}

/** The input hooks see: the tool's schema-prepared input (defaults filled in), or the input as given. */
function preparedOrRaw(tool: string, raw: Record<string, unknown>): unknown {
  const parsed = BUILTIN_TOOLS.find((t) => t.name === tool)?.schema.safeParse(raw);
  return parsed?.success ? parsed.data : raw;
}

async function messageSubmit(run: DryRun, workspace: string, text: string, mode: CanonicalMode): Promise<Report> {
  const ui = uiModeLabel(mode);
  const facts = { workspace, model: run.model, mode: ui, totalTokens: 0 };
  const hookCtx: HookContext = { event: 'message_submit', sessionId: run.runtime.sessionId, ...facts, message: text };
  const table = matchTable(run.config.loaded.set, hookCtx);
  const doc = buildMessageSubmitDocument({ text, sessionId: run.runtime.sessionId, workspace, mode: ui, model: run.model, totalTokens: 0 });
  const result = await run.runtime.messageSubmit(text, facts);
  const rows = new Map<number, string>();
  for (const m of table) if (m.matched) rows.set(m.hook.index, 'not run \u2014 an earlier hook blocked the submission');
  for (const s of result.steps) rows.set(s.index, `${s.result}${s.detail ? ` \u2014 ${line(s.detail)}` : ''}${peerLines(s.peer)}`);
  // What a claude-code hook is given instead of the contract's document (the first hook's view of the text).
  const peerDoc = table.some((m) => m.matched && m.hook.protocol === 'claude-code')
    ? buildPeerDocument({ event: 'message_submit', sessionId: run.runtime.sessionId, workspace, mode: ui, model: run.model, prompt: text })
    : null;
  const shown = (t: string): string => JSON.stringify(sanitizeText(t).text);
  const resultLines =
    result.kind === 'blocked'
      ? [`result: blocked \u2014 ${line(result.reason)}`, '  the message never reaches history or the model']
      : [
          `result: ${result.kind}`,
          `  text: ${shown(result.text)}`,
          ...(result.kind === 'replaced' ? [`  original: ${shown(text)}`] : []),
          ...(result.warning ? [`  warning: ${line(result.warning)}`] : []),
        ];
  if (peerDoc) resultLines.unshift(`  claude-code hooks were given: ${line(redactSecrets(peerDocumentForRecord(peerDoc)), 4_000)}`);
  const base = contextBase(run, workspace, ui);
  return {
    steering: 'transform',
    context: { ...base.json, text },
    contextLines: [`context: ${base.text}`, `text: ${shown(text)} (${doc.textOriginalBytes} bytes${doc.textTruncated ? `, truncated to ${doc.textBytes} in the stdin document` : ''})`],
    hookCtx,
    stdin: doc.json,
    table,
    rows,
    outcomes: result.steps.map((s) => ({ index: s.index, label: s.label, result: s.result, detail: s.detail, ...(s.peer ? { peer: s.peer } : {}) })),
    resultLines,
    result: result.kind === 'blocked' ? { kind: 'blocked', reason: result.reason } : { kind: result.kind, text: result.text, original: text, warning: result.warning },
    actual: result.kind,
    notes: [],
  };
}

async function shellEnv(run: DryRun, tool: string, input: Record<string, unknown>, showValues: boolean): Promise<Report> {
  const hookCtx: HookContext = { event: 'shell_env', tool: { name: tool, input } };
  const table = matchTable(run.config.loaded.set, hookCtx);
  const r = await run.runtime.shellEnv({ name: tool, input });
  const matched = table.filter((m) => m.matched);
  const rows = new Map<number, string>();
  const outcomes: unknown[] = [];
  r.hooks.forEach((h, i) => {
    const hook = matched[i]?.hook;
    if (!hook) return;
    const o = h.outcome;
    const dropped = h.dropped.map((d) => `${d.key === null ? '(unnamed)' : line(d.key, 64)} (${d.reason.replace(/_/g, ' ')}, line ${d.line})`);
    const text = o.success
      ? `${h.keys.length ? `${plural(h.keys.length, 'key')}: ${h.keys.map((k) => line(k, 64)).join(', ')}` : 'no keys'}${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`
      : `${outcomeText(o).text} (contributes nothing; the shell call still runs)`;
    rows.set(hook.index, `${text} ${timing(o.exitCode, o.durationMs)}`);
    outcomes.push({
      index: hook.index,
      label: h.label,
      outcome: o.success ? 'ok' : 'failed',
      detail: o.success ? null : outcomeDetail(o),
      exit_code: o.exitCode,
      duration_ms: o.durationMs,
      keys: [...h.keys],
      dropped: h.dropped.map((d) => ({ key: d.key, reason: d.reason, line: d.line })),
    });
  });
  const keys = [...r.vars.keys()];
  const resultLines = [
    `result: ${plural(keys.length, 'variable')}${keys.length ? `: ${keys.map((k) => line(k, 64)).join(', ')}` : ''}${keys.length && !showValues ? ' (values hidden; --show-values prints them)' : ''}`,
    ...(showValues ? keys.map((k) => `  ${line(k, 64)}=${line(r.vars.get(k) ?? '')}`) : []),
  ];
  return {
    steering: 'env',
    context: { tool, input },
    contextLines: [`context: tool \`${line(tool, 64)}\` (shell_env carries no session, workspace, model or mode)`, `input: ${jsonPreview(input, 400)}`],
    hookCtx,
    stdin: null,
    table,
    rows,
    outcomes,
    resultLines,
    result: { keys, ...(showValues ? { values: Object.fromEntries(r.vars) } : {}) },
    actual: null,
    notes: [],
  };
}

async function observer(
  run: DryRun,
  event: HookEventName,
  o: { workspace: string; mode: CanonicalMode; tool: string | null; input: Record<string, unknown>; text: string | null; exitCode: number | null; error: string | null; reason: WaitingReason },
): Promise<Report> {
  const syn = syntheticObserverEvent({ event, sessionId: run.runtime.sessionId, model: run.model, callId: CALL_ID, ...o });
  const hookCtx: HookContext = { ...syn.ctx, event, sessionId: run.runtime.sessionId };
  const table = matchTable(run.config.loaded.set, hookCtx);
  const outcomes = await run.runtime.runNow(event, syn.ctx, syn.stdin);
  const rows = new Map<number, string>();
  const stopper = eventSpec(event).failurePolicy === 'stop-on-strict-failure';
  for (const m of table) if (m.matched) rows.set(m.hook.index, 'not run \u2014 an earlier strict hook failed and stopped this event');
  const counts = { ok: 0, failed: 0, submitted: 0 };
  for (const out of outcomes) {
    const t = outcomeText(out);
    counts[t.kind]++;
    rows.set(out.hook.index, out.background ? t.text : `${t.text} ${timing(out.exitCode, out.durationMs)}`);
  }
  const notRun = table.filter((m) => m.matched).length - outcomes.length;
  const base = contextBase(run, o.workspace, uiModeLabel(o.mode));
  const context: Record<string, unknown> = { ...base.json };
  const contextLines = [`context: ${base.text}`];
  const tool = syn.ctx.tool;
  if (tool) {
    Object.assign(context, { tool: tool.name, call_id: tool.callId, input: tool.input, exit_code: tool.exitCode ?? null, success: tool.success ?? null, status: tool.status ?? null });
    contextLines.push(
      `tool: \`${line(tool.name, 64)}\`, input ${jsonPreview(tool.input, 300)}, ${tool.exitCode == null ? 'no exit code' : `exit code ${tool.exitCode}`}, ${tool.success ? 'succeeded' : 'failed'}`,
    );
  }
  if (syn.ctx.error) {
    context.error = syn.ctx.error;
    contextLines.push(`error: ${line(syn.ctx.error, 300)}`);
  }
  if (syn.ctx.message) context.message = syn.ctx.message;
  contextLines.push(...syn.facts);
  const parts = [`${counts.ok} ok`, `${counts.failed} failed`, ...(counts.submitted ? [`${counts.submitted} submitted in the background`] : []), ...(notRun ? [`${notRun} not run`] : [])];
  return {
    steering: 'observer',
    context,
    contextLines,
    hookCtx,
    stdin: syn.stdin,
    table,
    rows,
    outcomes: outcomes.map((x) => ({
      index: x.hook.index,
      label: x.hook.label,
      source: x.hook.source,
      outcome: outcomeText(x).kind,
      detail: x.success ? null : outcomeDetail(x),
      exit_code: x.exitCode,
      signal: x.signal,
      timed_out: x.timedOut,
      spawn_error: x.spawnError,
      duration_ms: x.durationMs,
      strict: x.strict,
      background: x.background,
    })),
    resultLines: [`result: ${parts.join(', ')} \u2014 observer: Codewhale ignores the result${stopper ? '; a failing strict hook stops the later ones' : '; every matching hook runs'}`],
    result: { kind: 'observer', ok: counts.ok, failed: counts.failed, submitted: counts.submitted, not_run: notRun },
    actual: null,
    notes: [],
  };
}
