import { resolve } from 'node:path';
import { openSession, parseMode, type ApprovalRequest, type HostEvent, type Interaction, type SessionHost, type TurnSummary } from '@codewhale/engine';
import { gateDecisionToJson, type GateDecisionRecord } from '@codewhale/hooks-payloads';
import { CliError, fromEngineError } from '../cli-error.js';
import { commandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { CommonOptions } from '../common-options.js';

export interface ExecOptions extends CommonOptions {
  readonly hooks?: boolean;
  readonly auto?: boolean;
  readonly provider?: string;
  readonly model?: string;
  readonly replay?: string;
  readonly maxTurns?: number;
  readonly allowedTools?: string[];
  readonly disallowedTools?: string[];
  readonly mode?: string;
  readonly outputFormat?: 'text' | 'stream-json';
  readonly json?: boolean;
}

const SCHEMA = { schema_version: 1, schema: 'codewhale.exec-stream' } as const;

/** One line for a tool call: its name and a short, single-line summary of its input. */
function toolLine(name: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const s = typeof i.command === 'string' ? i.command : typeof i.path === 'string' ? i.path : typeof i.prompt === 'string' ? i.prompt : '';
  const flat = String(s).replace(/\s+/g, ' ').trim();
  return flat ? `${name} (${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat})` : name;
}

function firstLine(text: string, max = 160): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The first line of a tool's output, then up to 5 more lines indented, then how many were left out. */
function excerpt(text: string): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  const head = lines.slice(0, 6).map((l, i) => (i === 0 ? firstLine(l) : `    ${l.length > 160 ? `${l.slice(0, 159)}…` : l}`));
  const more = lines.length - head.length;
  return head.join('\n') + (more > 0 ? `\n    … (${more} more line${more === 1 ? '' : 's'})` : '');
}

function decisionJson(d: GateDecisionRecord | null): unknown {
  return d ? gateDecisionToJson(d) : null;
}

/** `codewhale exec`: one headless turn. Exit 0 completed, 1 failed, 2 usage, 75 network/timeout after retries. */
export async function runExec(prompt: string, opts: ExecOptions, io: Io): Promise<number> {
  const format = opts.outputFormat ?? 'text';
  if (opts.json && format === 'stream-json') throw CliError.usage('--json and --output-format stream-json cannot be combined', 'pick one');
  if (prompt.trim() === '') throw CliError.usage('the prompt is empty');
  const mode = opts.mode ? parseMode(opts.mode) : 'work';
  if (!mode) throw CliError.usage(`unknown mode \`${opts.mode}\``, 'use plan, work or operate');
  if (opts.maxTurns !== undefined && opts.maxTurns < 1) throw CliError.usage('--max-turns must be at least 1');
  const ctx = commandContext(opts, io);
  const approvalsRequired: { tool: string; summary: string; reason: string }[] = [];
  const interaction: Interaction = {
    approve: async (req: ApprovalRequest) => {
      if (opts.auto && req.reason === 'posture') return 'allow';
      approvalsRequired.push({ tool: req.tool, summary: req.summary, reason: req.reason });
      return 'deny';
    },
    askUser: async () => null,
  };

  const stream = (obj: Record<string, unknown>) => io.stdout(`${JSON.stringify({ ...SCHEMA, ...obj })}\n`);
  const started = new Map<string, string>();
  const tools: { id: string; name: string; success: boolean; output: string; decision: unknown }[] = [];
  let usageIndex = 0;
  let output = '';
  let lastWasText = false;

  let host: SessionHost;
  try {
    host = await openSession({
      workspace: ctx.workspace,
      env: io.env,
      profile: 'exec',
      interaction,
      flags: {
        configPath: ctx.paths.configPath,
        hooks: Boolean(opts.hooks),
        provider: opts.provider,
        model: opts.model,
        ...(opts.replay ? { replay: resolve(io.cwd, opts.replay) } : {}),
        mode,
        posture: opts.auto ? 'full_access' : 'ask',
        allowedTools: opts.allowedTools ?? null,
        disallowedTools: opts.disallowedTools ?? [],
        ...(opts.maxTurns ? { maxSteps: opts.maxTurns } : {}),
      },
      ...(io.env.CODEWHALE_TOOL_AUDIT_LOG ? { decisionLogPath: resolve(io.cwd, io.env.CODEWHALE_TOOL_AUDIT_LOG) } : {}),
    });
  } catch (e) {
    throw fromEngineError(e);
  }

  host.subscribe((e: HostEvent) => {
    switch (e.type) {
      case 'notice':
        // Hook problems (a failing or partly dropped shell_env hook, rejected entries): bounded and redacted by the host.
        if (format === 'stream-json') stream({ type: 'hook_warning', level: e.notice.level, message: e.notice.message });
        else io.stderr(`warning: hooks: ${e.notice.message}\n`);
        break;
      case 'text_delta':
        output += e.text;
        if (format === 'stream-json') stream({ type: 'content', text: e.text });
        else if (!opts.json) io.stdout(e.text);
        lastWasText = true;
        break;
      case 'tool_call_started':
        started.set(e.id, new Date().toISOString());
        if (format === 'stream-json') stream({ type: 'tool_use', id: e.id, name: e.name, input: e.input, started_at: started.get(e.id) });
        else {
          if (lastWasText && !opts.json) io.stdout('\n');
          lastWasText = false;
          io.stderr(`tool: ${toolLine(e.name, e.input)}\n`);
        }
        break;
      case 'tool_call_completed': {
        const o = e.outcome;
        const ok = o.result?.success === true;
        tools.push({ id: o.id, name: o.name, success: ok, output: o.modelText, decision: decisionJson(o.decision) });
        if (format === 'stream-json') {
          stream({
            type: 'tool_result',
            id: o.id,
            name: o.name,
            output: o.modelText,
            status: ok ? 'success' : 'error',
            error_category: o.error ? o.error.kind : o.result && !o.result.success ? 'tool' : null,
            started_at: started.get(o.id) ?? null,
            completed_at: new Date().toISOString(),
            duration_ms: o.durationMs,
            result_metadata: o.result?.metadata ?? null,
            decision: decisionJson(o.decision),
          });
        } else {
          const d = o.decision;
          if (d && d.hooks.length > 0) {
            const why = d.hooks.map((h) => `${h.label}=${h.outcome}`).join(', ');
            io.stderr(`  hooks: ${d.decision}${d.updatedInput ? ' (input rewritten)' : ''}${d.additionalContext ? ' (+context)' : ''} [${why}]\n`);
          }
          if (o.error) io.stderr(`tool ${o.name} ${o.error.kind === 'hook_denied' || o.error.kind === 'approval_denied' ? 'denied' : 'failed'}: ${firstLine(o.error.message)}\n`);
          else io.stderr(`tool ${o.name} ${ok ? 'completed' : 'failed'}: ${excerpt(o.result?.content ?? '')}\n`);
        }
        break;
      }
      case 'approval_required':
        if (!(opts.auto && e.request.reason === 'posture')) {
          const why = e.request.reason === 'hook' ? 'a tool_call_before hook asked for approval' : 'approval required';
          if (format !== 'stream-json') io.stderr(`${why}: ${e.request.summary} — denied (exec cannot prompt${opts.auto ? '' : '; run with --auto to allow'})\n`);
        }
        break;
      case 'usage':
        if (format === 'stream-json') {
          const u = e.usage;
          stream({
            type: 'turn_usage',
            index: usageIndex++,
            input_tokens: u.inputTokens,
            output_tokens: u.outputTokens,
            ...(u.promptCacheHitTokens !== null ? { prompt_cache_hit_tokens: u.promptCacheHitTokens } : {}),
            ...(u.promptCacheMissTokens !== null ? { prompt_cache_miss_tokens: u.promptCacheMissTokens } : {}),
            ...(u.reasoningTokens !== null ? { reasoning_tokens: u.reasoningTokens } : {}),
            duration_ms: e.durationMs,
          });
        }
        break;
      case 'retry':
        if (format === 'stream-json') stream({ type: 'error', category: e.category, message: e.message, recoverable: true, attempt: e.attempt, retry_in_ms: e.delayMs });
        else io.stderr(`retry ${e.attempt}: ${e.message} (in ${e.delayMs} ms)\n`);
        break;
      case 'error':
        if (format === 'stream-json') stream({ type: 'error', category: e.category, message: e.message, recoverable: false });
        else io.stderr(`error: ${e.message}\n`);
        break;
      default:
        break;
    }
  });

  let summary: TurnSummary;
  try {
    const r = await host.submit(prompt);
    if (r.kind === 'blocked') throw new Error('unreachable: exec fires no message_submit hooks');
    summary = r.summary;
  } finally {
    await host.dispose();
  }
  if (format === 'text' && !opts.json && output && !output.endsWith('\n')) io.stdout('\n');

  const exitCode = summary.status === 'completed' ? EXIT.ok : summary.errorCategory === 'network' || summary.errorCategory === 'timeout' ? EXIT.tempfail : EXIT.failure;
  const termination =
    summary.status === 'completed'
      ? 'resolved'
      : summary.status === 'interrupted'
        ? 'canceled'
        : summary.errorCategory === 'budget'
          ? 'budget_exhausted'
          : summary.errorCategory === 'timeout'
            ? 'timeout'
            : summary.errorCategory === 'network'
              ? 'infrastructure_error'
              : 'model_error';
  const usage = {
    input_tokens: summary.usage.inputTokens,
    output_tokens: summary.usage.outputTokens,
    prompt_cache_hit_tokens: summary.usage.promptCacheHitTokens,
    prompt_cache_miss_tokens: summary.usage.promptCacheMissTokens,
    reasoning_tokens: summary.usage.reasoningTokens,
  };
  const meta = {
    provider: host.getSnapshot().provider,
    model: host.getSnapshot().model,
    mode,
    posture: opts.auto ? 'full_access' : 'ask',
    hooks: Boolean(opts.hooks),
    session_id: host.sessionId,
    turn_id: summary.turnId,
    status: summary.status,
    error: summary.error,
    error_category: summary.errorCategory,
    termination_reason: approvalsRequired.length > 0 && summary.status === 'completed' ? 'approval_required' : termination,
    approvals_required: approvalsRequired,
    tool_count: summary.toolCount,
    usage,
    duration_ms: summary.durationMs,
  };
  if (format === 'stream-json') {
    stream({ type: 'metadata', ...meta });
    stream({ type: 'done', status: summary.status, exit_code: exitCode });
  } else if (opts.json) {
    io.stdout(`${JSON.stringify({ ...meta, prompt, output, tools }, null, 2)}\n`);
  }
  return exitCode;
}
