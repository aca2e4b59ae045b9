import { LIMITS } from './limits.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';
import { sanitizeDenialReason } from './denial-reason.js';
import { redactSecrets } from './redact-secrets.js';
import { isJsonObject, toJson, type JsonValue } from './json.js';
import { utf8ByteLength } from './utf8.js';
import { truncateBytes } from './bounded.js';
import { isStrict } from './is-strict.js';
import { observedExitCode, outcomeDetail, type HookOutcome, type HookIdentity } from './outcome.js';
import { readPeerGateAnswer } from './peer-protocol.js';

export type GateDecision = 'allow' | 'deny' | 'ask';

/** What one hook's stdout said, after parsing and bounding. */
export interface ToolCallBeforeVerdict {
  readonly decision: GateDecision | null;
  /** Sanitized, ≤ 2,000 chars + marker; whitespace-only is dropped. */
  readonly reason: string | null;
  readonly updatedInput: Record<string, unknown> | null;
  readonly additionalContext: string | null;
  /** Why parts of the stdout were ignored (fixed texts; never echo the stdout). */
  readonly warnings: readonly string[];
}

const EMPTY: ToolCallBeforeVerdict = { decision: null, reason: null, updatedInput: null, additionalContext: null, warnings: [] };

function boundedField(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const text = sanitizeText(v, LIMITS.steeringFieldMaxChars).text;
  return text.trim() === '' ? null : text;
}

/**
 * Parse a `tool_call_before` hook's stdout. Empty, non-JSON, non-object JSON, and JSON
 * without a known `decision` all mean "no decision" (allow). `decision` is exactly
 * `allow` / `deny` / `ask`. `reason` and `additionalContext` are sanitized and capped at
 * 2,000 chars. `updatedInput` must be an object of at most 32 KiB compact JSON, else it is
 * ignored and the decision still counts.
 */
export function parseToolCallBeforeStdout(stdout: string): ToolCallBeforeVerdict {
  const trimmed = stdout.trim();
  if (trimmed === '') return EMPTY;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return EMPTY;
  }
  if (!isJsonObject(value)) return { decision: null, reason: null, updatedInput: null, additionalContext: null, warnings: ['stdout JSON is not an object; treated as no decision'] };
  const warnings: string[] = [];
  let decision: GateDecision | null = null;
  if (value.decision === 'allow' || value.decision === 'deny' || value.decision === 'ask') decision = value.decision;
  else if (value.decision !== undefined) warnings.push('unrecognised `decision` value; treated as no decision');
  let updatedInput: Record<string, unknown> | null = null;
  if (value.updatedInput !== undefined) {
    if (!isJsonObject(value.updatedInput)) warnings.push('`updatedInput` is not an object; ignored');
    else if (utf8ByteLength(JSON.stringify(value.updatedInput)) > LIMITS.updatedInputMaxBytes) {
      warnings.push('`updatedInput` exceeds 32 KiB; ignored');
    } else updatedInput = value.updatedInput;
  }
  return {
    decision,
    reason: boundedField(value.reason),
    updatedInput,
    additionalContext: boundedField(value.additionalContext),
    warnings,
  };
}

/** How one matched hook took part in a gate decision (a decision-record row). */
export type GateHookOutcomeKind =
  /** Its verdict, from stdout JSON. */
  | 'allow'
  | 'deny'
  | 'ask'
  /** Exit 2: a hard deny whatever stdout said. */
  | 'deny_exit_2'
  /** It ran and gave no decision: allow. */
  | 'no_decision'
  /** It could not answer (timeout, spawn failure, oversized output, strict non-zero exit without a decision). */
  | 'no_verdict'
  /** A background submission: never awaited, cannot steer. */
  | 'submitted'
  /** Matched, but never ran: an earlier strict hook failed and stopped the event. */
  | 'skipped';

export interface GateHookRecord {
  readonly index: number;
  readonly label: string;
  readonly source: HookIdentity['source'];
  readonly strict: boolean;
  readonly background: boolean;
  readonly outcome: GateHookOutcomeKind;
  /** A fixed, safe detail (`hook timed out after 1s`, the redacted reason…), or `null`. */
  readonly detail: string | null;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly rewroteInput: boolean;
  readonly addedContext: boolean;
  /**
   * For a hook speaking a peer protocol (`protocol = "claude-code"`): its answer as a bounded,
   * secret-redacted line, and what of it Codewhale ignored. Absent for Codewhale's own protocol.
   */
  readonly peer?: { readonly protocol: 'claude-code'; readonly answer: string; readonly warnings: readonly string[] };
}

/** Why a gate denied. */
export type DenyKind = 'no_verdict' | 'exit_2' | 'json_deny';

/**
 * The decision record for one `tool_call_before` fold (D28): which hooks matched, what each
 * did, the final decision, original versus rewritten input (bounded previews), and the digest
 * of the hook set that decided. Never carries raw stdout, stderr, commands or env values.
 */
export interface GateDecisionRecord {
  readonly schemaVersion: 1;
  readonly tool: string;
  readonly callId: string | null;
  readonly decision: GateDecision;
  readonly denyKind: DenyKind | null;
  /** For a deny: the full bounded denial message the model sees. */
  readonly message: string | null;
  /** The last `updatedInput`, when the call is not denied. */
  readonly updatedInput: Record<string, unknown> | null;
  /** The concatenated context (≤ 8,000 chars + marker), when the call is not denied. */
  readonly additionalContext: string | null;
  readonly hooks: readonly GateHookRecord[];
  readonly input: {
    readonly original: string;
    readonly rewritten: string | null;
    /** The stdin document peer-protocol hooks were given (bounded, secret-redacted); absent when none ran. */
    readonly peer?: string;
  };
  readonly hookSetDigest: string | null;
}

export interface FoldToolCallBeforeInput {
  readonly tool: string;
  readonly callId?: string | null;
  readonly originalInput: unknown;
  /** Outcomes of the hooks that ran, in config order. */
  readonly outcomes: readonly HookOutcome[];
  /** Hooks that matched but did not run because an earlier strict failure stopped the event. */
  readonly skipped?: readonly HookIdentity[];
  readonly hookSetDigest?: string | null;
  /**
   * The preview of `originalInput`, made ahead with {@link ToolInputPreview.of} (a caller can
   * make it while the hooks run, off the path from their results to the decision). Used only
   * when it was made from this very `originalInput` object; otherwise the fold makes it.
   */
  readonly originalPreview?: ToolInputPreview | null;
  /** The workspace, to map a peer hook's absolute `file_path` in `updatedInput` back to ours. */
  readonly workspace?: string | null;
  /** The stdin document given to peer-protocol hooks (JSON), for the record. */
  readonly peerDocument?: string | null;
}

const DEFAULT_DENY_REASON = 'ToolCallBefore hook denied tool execution';

/**
 * The bounded, secret-redacted preview of a tool input that a decision record carries
 * (`input.original`), made ahead of the fold. Only this class can make one, from the input
 * itself, so a preview handed to the fold is always redacted; the fold uses it only for the
 * same input object it was made from. Make it once the input is final: a change to the object
 * after that is not in the preview.
 */
export class ToolInputPreview {
  readonly #input: unknown;
  /** The preview text (what `GateDecisionRecord.input.original` will hold). */
  readonly text: string;

  private constructor(input: unknown) {
    this.#input = input;
    this.text = preview(input);
  }

  static of(input: unknown): ToolInputPreview {
    return new ToolInputPreview(input);
  }

  /** The text when this preview was made from `input` (the same object or primitive), else null. */
  textFor(input: unknown): string | null {
    return Object.is(this.#input, input) ? this.text : null;
  }
}

function preview(input: unknown): string {
  let json: string;
  try {
    json = typeof input === 'string' ? input : toJson((input ?? {}) as JsonValue);
  } catch {
    json = '{}';
  }
  // Secrets are redacted before the preview is bounded, so a cut never leaves half of one:
  // the previews reach the decision log, `exec` output and the Runtime API's store.
  return sanitizeLine(truncateBytes(redactSecrets(json), LIMITS.decisionInputPreviewMaxBytes).text).text;
}

function isUnavailable(o: HookOutcome, verdict: ToolCallBeforeVerdict | null): boolean {
  if (o.background) return false;
  const code = observedExitCode(o);
  if (code === 2) return false;
  if (code === null) return true;
  if (o.stdoutTruncated) return true;
  return o.strict && code !== 0 && (verdict === null || verdict.decision === null);
}

/**
 * Fold the outcomes of the `tool_call_before` hooks that ran into one decision. Precedence:
 * a strict hook with no verdict > exit 2 > JSON `deny` > `ask` > allow. The last
 * `updatedInput` wins; `additionalContext` values are joined with `\n` and capped at 8,000
 * chars. Strictness is read only off hooks that actually ran; background results never
 * steer; oversized stdout is never parsed (D16). Pure: same outcomes, same record.
 */
export function foldToolCallBefore(input: FoldToolCallBeforeInput): GateDecisionRecord {
  const { tool } = input;
  const rows: GateHookRecord[] = [];
  const strictNoVerdict: string[] = [];
  let exit2: { reason: string | null } | null = null;
  let jsonDeny: { reason: string | null } | null = null;
  let ask = false;
  let updated: Record<string, unknown> | null = null;
  const contexts: string[] = [];

  for (const o of input.outcomes) {
    const code = observedExitCode(o);
    if (o.background) {
      rows.push(hookRow(o, code, 'submitted', o.success ? null : outcomeDetail(o), false, false));
      continue;
    }
    let peer: GateHookRecord['peer'] | undefined;
    let verdict: ToolCallBeforeVerdict | null;
    if (o.hook.protocol === 'claude-code') {
      const a = readPeerGateAnswer(o, { tool, input: input.originalInput, workspace: input.workspace ?? '.' });
      peer = { protocol: 'claude-code', answer: a.answer, warnings: a.warnings };
      // The peer's answer in the terms of our own: the same fold, precedence and bounds apply.
      verdict = code === null ? null : { decision: a.decision, reason: a.reason, updatedInput: a.updatedInput, additionalContext: a.additionalContext, warnings: a.warnings };
    } else {
      // Oversized stdout is never parsed from a cut buffer (D16).
      verdict = code === null || o.stdoutTruncated ? null : parseToolCallBeforeStdout(o.stdout);
    }
    if (code === 2) {
      const reason = verdict?.reason != null ? sanitizeDenialReason(verdict.reason) : null;
      exit2 ??= { reason };
      rows.push(hookRow(o, code, 'deny_exit_2', reason, false, false, peer));
      continue;
    }
    if (isUnavailable(o, verdict)) {
      const detail = sanitizeLine(outcomeDetail(o), LIMITS.noVerdictDetailMaxChars).text;
      if (o.strict) strictNoVerdict.push(`${o.hook.label}: ${detail}`);
      rows.push(hookRow(o, code, 'no_verdict', detail, false, false, peer));
      continue;
    }
    if (verdict === null) continue;
    // Every other result with an observed exit code counts, whatever the code: a lenient hook
    // that exits 1 and prints a deny still denies, and its rewrite still applies.
    if (verdict.updatedInput) updated = verdict.updatedInput;
    if (verdict.additionalContext) contexts.push(verdict.additionalContext);
    // A deny's or an ask's reason is kept (redacted, bounded): the approval prompt and `/why` show why.
    const reason = (verdict.decision === 'deny' || verdict.decision === 'ask') && verdict.reason != null ? sanitizeDenialReason(verdict.reason) : null;
    if (verdict.decision === 'deny') jsonDeny ??= { reason };
    else if (verdict.decision === 'ask') ask = true;
    rows.push(hookRow(o, code, verdict.decision ?? 'no_decision', reason, verdict.updatedInput !== null, verdict.additionalContext !== null, peer));
  }
  for (const h of input.skipped ?? []) {
    rows.push({
      index: h.index,
      label: h.label,
      source: h.source,
      strict: isStrict(h),
      background: h.background,
      outcome: 'skipped',
      detail: 'an earlier strict hook failed and stopped this event',
      exitCode: null,
      durationMs: 0,
      rewroteInput: false,
      addedContext: false,
    });
  }

  const callId = input.callId ?? null;
  const digest = input.hookSetDigest ?? null;
  const original = input.originalPreview?.textFor(input.originalInput) ?? preview(input.originalInput);
  const peerInput = input.peerDocument && rows.some((r) => r.peer) ? { peer: preview(input.peerDocument) } : {};
  const deny = (denyKind: DenyKind, message: string): GateDecisionRecord => ({
    schemaVersion: 1,
    tool,
    callId,
    hooks: rows,
    hookSetDigest: digest,
    decision: 'deny',
    denyKind,
    message: sanitizeLine(message).text,
    updatedInput: null,
    additionalContext: null,
    input: { original, rewritten: null, ...peerInput },
  });

  if (strictNoVerdict.length > 0) {
    return deny('no_verdict', `ToolCallBefore hook returned no verdict for tool '${toolLabel(tool)}' and \`continue_on_error = false\` is configured: ${strictNoVerdict.join('; ')}`);
  }
  if (exit2) return deny('exit_2', `ToolCallBefore hook denied tool '${toolLabel(tool)}': ${exit2.reason ?? DEFAULT_DENY_REASON}`);
  if (jsonDeny) return deny('json_deny', `ToolCallBefore hook denied tool '${toolLabel(tool)}': ${jsonDeny.reason ?? DEFAULT_DENY_REASON}`);
  const context = contexts.length > 0 ? sanitizeText(contexts.join('\n'), LIMITS.contextMaxChars).text : null;
  return {
    schemaVersion: 1,
    tool,
    callId,
    hooks: rows,
    hookSetDigest: digest,
    decision: ask ? 'ask' : 'allow',
    denyKind: null,
    message: null,
    updatedInput: updated,
    additionalContext: context,
    input: { original, rewritten: updated ? preview(updated) : null, ...peerInput },
  };
}

/**
 * One hook's row of the record. Written out field by field rather than `{ ...base, … }`: on
 * Node 20 each property a literal adds after a spread costs ~1–2 µs, and a fold runs for every
 * gated tool call.
 */
function hookRow(
  o: HookOutcome,
  exitCode: number | null,
  outcome: GateHookOutcomeKind,
  detail: string | null,
  rewroteInput: boolean,
  addedContext: boolean,
  peer?: GateHookRecord['peer'],
): GateHookRecord {
  if (peer)
    return {
      index: o.hook.index,
      label: o.hook.label,
      source: o.hook.source,
      strict: o.strict,
      background: o.background,
      exitCode,
      durationMs: o.durationMs,
      outcome,
      detail,
      rewroteInput,
      addedContext,
      peer,
    };
  return {
    index: o.hook.index,
    label: o.hook.label,
    source: o.hook.source,
    strict: o.strict,
    background: o.background,
    exitCode,
    durationMs: o.durationMs,
    outcome,
    detail,
    rewroteInput,
    addedContext,
  };
}

function toolLabel(tool: string): string {
  return sanitizeLine(tool, LIMITS.labelMaxChars).text;
}

/**
 * The decision when the executor itself was lost (crashed or cancelled) before any result:
 * every matched strict foreground gate counts as `hook executor did not run`, so a strict gate
 * still fails closed; with no strict gate matched, the call proceeds.
 */
export function foldLostToolCallBefore(input: {
  readonly tool: string;
  readonly callId?: string | null;
  readonly originalInput: unknown;
  readonly matched: readonly HookIdentity[];
  readonly hookSetDigest?: string | null;
}): GateDecisionRecord {
  const outcomes: HookOutcome[] = input.matched
    .filter((h) => !h.background)
    .map((h) => ({
      hook: h,
      background: false,
      strict: isStrict(h),
      success: false,
      exitCode: null,
      signal: null,
      durationMs: 0,
      timedOut: false,
      spawnError: null,
      error: 'hook executor did not run',
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    }));
  return foldToolCallBefore(Object.assign({}, input, { outcomes }));
}
