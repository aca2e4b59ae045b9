import type { HookEventName } from './events.js';
import type { ToolContext } from './context.js';
import { LIMITS } from './limits.js';
import { isJsonObject, toJson, type JsonValue } from './json.js';
import { canonicalMode } from './modes.js';
import { ourToPeerEvent, type PeerEventName } from './peer-events.js';
import { ourToPeerToolName } from './peer-tool-names.js';
import { fromPeerToolInput, toPeerToolInput } from './peer-tool-input.js';
import { truncateBytes } from './bounded.js';
import { sanitizeLine, sanitizeText } from './sanitize.js';
import { sanitizeDenialReason } from './denial-reason.js';
import { codePointLength, utf8ByteLength, utf8PrefixEnd } from './utf8.js';

/**
 * The `claude-code` protocol: the stdin document a Claude Code (or Codex) command hook reads,
 * built from what the event carries, and the reading of its answer (exit code, stderr, stdout
 * JSON) into Codewhale's verdicts. Pure: the supervisor writes the document and hands the
 * answer back; conditions, timeouts, strictness, the fold and redaction stay Codewhale's.
 */

/** The peer's `permission_mode` values this side produces. */
export type PeerPermissionMode = 'default' | 'plan' | 'acceptEdits' | 'bypassPermissions';

/**
 * The peer's `permission_mode` for a mode and an approval posture: Plan mode is `plan`; the
 * Ask posture is `default`; Auto-Review (ordinary calls proceed, a floor refuses dangerous
 * ones) is `acceptEdits`; Full Access is `bypassPermissions`. An unknown posture is `default`.
 */
export function peerPermissionMode(mode: string | null | undefined, posture: string | null | undefined): PeerPermissionMode {
  if (canonicalMode(mode) === 'plan') return 'plan';
  if (posture === 'full_access') return 'bypassPermissions';
  if (posture === 'auto_review') return 'acceptEdits';
  return 'default';
}

/** The peer's `notification_type` for why the session waits (`waiting_for_user`'s `reason`). */
const NOTIFICATIONS: Readonly<Record<string, { readonly type: string; readonly message: string }>> = {
  approval: { type: 'permission_prompt', message: 'Codewhale needs your permission to use a tool' },
  user_input: { type: 'elicitation_dialog', message: 'Codewhale is waiting for your answer' },
  goal_continuation: { type: 'idle_prompt', message: 'Codewhale is waiting for your input' },
};

/** Everything the peer document of one firing is built from. */
export interface PeerDocumentFacts {
  readonly event: HookEventName;
  readonly sessionId: string | null;
  /** The absolute workspace: the document's `cwd`, `CLAUDE_PROJECT_DIR`, and the base of absolute paths. */
  readonly workspace: string;
  readonly mode?: string | null;
  readonly posture?: string | null;
  readonly model?: string | null;
  readonly tool?: ToolContext | null;
  /** `message_submit`: the text as this hook is given it. */
  readonly prompt?: string | null;
  /** The event's own stdin document, parsed (for `waiting_for_user`'s reason, a sub-agent's id and preview). */
  readonly native?: Readonly<Record<string, unknown>> | null;
}

/** The peer document: its JSON text (what goes to stdin) and the object. */
export interface PeerDocument {
  readonly eventName: PeerEventName;
  readonly json: string;
  readonly document: Readonly<Record<string, JsonValue>>;
}

/** `tool_response` of a PostToolUse document: the result text (bounded), success, and for a shell run its receipt's streams and exit code. */
function toolResponse(tool: ToolContext): Record<string, JsonValue> {
  const result = truncateBytes(tool.result ?? '', LIMITS.envToolResultMaxBytes);
  const out: Record<string, JsonValue> = { output: result.text, success: tool.success ?? null };
  if (result.truncated) out['output_truncated'] = true;
  if (tool.exitCode != null) out['exit_code'] = tool.exitCode;
  if (tool.executionReceipt) {
    try {
      const r = JSON.parse(tool.executionReceipt) as unknown;
      if (isJsonObject(r)) {
        if (typeof r['stdout'] === 'string') out['stdout'] = r['stdout'];
        if (typeof r['stderr'] === 'string') out['stderr'] = r['stderr'];
        out['interrupted'] = r['state'] === 'interrupted';
      }
    } catch {
      // a receipt is built by us; an unreadable one adds nothing
    }
  }
  return out;
}

/**
 * The peer's stdin document for one firing, or `null` for an event the peer has no name for
 * (such a hook is rejected at load, so this does not happen for a loaded hook). Common fields:
 * `session_id`, `transcript_path` (always `null`: Codewhale keeps no transcript file a hook
 * could read), `cwd`, `permission_mode`, `hook_event_name`, `model` when known. Tool events add
 * `tool_name` (peer spelling), `tool_input` (peer field names, absolute paths) and
 * `tool_use_id`; PostToolUse adds `tool_response`; UserPromptSubmit adds `prompt`.
 */
export function buildPeerDocument(facts: PeerDocumentFacts): PeerDocument | null {
  const eventName = ourToPeerEvent(facts.event);
  if (eventName === null) return null;
  const doc: Record<string, JsonValue> = {
    session_id: facts.sessionId ?? '',
    transcript_path: null,
    cwd: facts.workspace,
    permission_mode: peerPermissionMode(facts.mode, facts.posture),
    hook_event_name: eventName,
  };
  if (facts.model) doc['model'] = facts.model;
  const native = facts.native ?? {};
  switch (eventName) {
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = facts.tool;
      if (tool) {
        doc['tool_name'] = ourToPeerToolName(tool.name);
        doc['tool_input'] = (toPeerToolInput(tool.name, tool.input ?? {}, facts.workspace) ?? {}) as JsonValue;
        doc['tool_use_id'] = tool.callId ?? '';
        if (eventName === 'PostToolUse') doc['tool_response'] = toolResponse(tool);
      }
      break;
    }
    case 'UserPromptSubmit': {
      // Bounded as the contract's own document bounds it: the largest UTF-8 prefix, flagged.
      const prompt = facts.prompt ?? '';
      const end = utf8PrefixEnd(prompt, LIMITS.messageSubmitDocumentMaxBytes);
      doc['prompt'] = prompt.slice(0, end);
      if (end < prompt.length) doc['prompt_truncated'] = true;
      break;
    }
    case 'SessionStart':
      doc['source'] = 'startup';
      break;
    case 'SessionEnd':
      doc['reason'] = 'other';
      break;
    case 'Notification': {
      const n = NOTIFICATIONS[typeof native['reason'] === 'string' ? native['reason'] : ''] ?? NOTIFICATIONS['goal_continuation']!;
      doc['message'] = n.message;
      doc['notification_type'] = n.type;
      break;
    }
    case 'Stop':
      doc['stop_hook_active'] = false;
      break;
    case 'SubagentStop':
      doc['stop_hook_active'] = false;
      if (typeof native['agent_id'] === 'string') doc['agent_id'] = native['agent_id'];
      if (typeof native['result_preview'] === 'string') doc['last_assistant_message'] = native['result_preview'];
      break;
  }
  return { eventName, json: toJson(doc), document: doc };
}

/**
 * The document as records show it: without `session_id` (the record's session says it, and a
 * session id looks like a credential to the secret redactor, which would hide the whole line).
 * Records still bound and redact it.
 */
export function peerDocumentForRecord(doc: PeerDocument): string {
  const { session_id: _sessionId, ...rest } = doc.document;
  return toJson(rest);
}

/** What a peer hook's process produced, as the supervisor captured it. */
export interface PeerRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

/** The peer's fields common to every answer (its "universal" output). */
interface PeerCommon {
  readonly continue: boolean;
  readonly stopReason: string | null;
  readonly suppressOutput: boolean;
  readonly systemMessage: string | null;
}

const ANSWER_PREVIEW_CHARS = 300;

/** A reason as records show it: bounded, and redacted as every denial reason is. */
function shownReason(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(sanitizeDenialReason(v)) : '(not a string)';
}

/** Which fields a JSON answer set, with decisions and reasons (redacted) — never the updated input or the context itself. */
function summarizeJsonAnswer(json: Record<string, unknown>): string {
  const parts: string[] = [];
  const specific = isJsonObject(json['hookSpecificOutput']) ? json['hookSpecificOutput'] : null;
  if (specific) {
    if (specific['permissionDecision'] !== undefined)
      parts.push(`permissionDecision: ${typeof specific['permissionDecision'] === 'string' ? sanitizeLine(specific['permissionDecision'], 20).text : '(not a string)'}`);
    if (specific['permissionDecisionReason'] !== undefined) parts.push(`permissionDecisionReason: ${shownReason(specific['permissionDecisionReason'])}`);
    const u = specific['updatedInput'];
    if (u !== undefined)
      parts.push(
        isJsonObject(u)
          ? `updatedInput with ${
              Object.keys(u)
                .map((k) => sanitizeLine(k, 40).text)
                .join(', ') || 'no fields'
            }`
          : 'updatedInput (not an object)',
      );
    const c = specific['additionalContext'];
    if (c !== undefined) parts.push(typeof c === 'string' ? `additionalContext (${codePointLength(c)} characters)` : 'additionalContext (not a string)');
  } else if (json['hookSpecificOutput'] !== undefined) parts.push('hookSpecificOutput (not an object)');
  if (json['decision'] !== undefined) parts.push(`decision: ${typeof json['decision'] === 'string' ? sanitizeLine(json['decision'], 20).text : '(not a string)'}`);
  if (json['reason'] !== undefined) parts.push(`reason: ${shownReason(json['reason'])}`);
  if (json['continue'] === false) parts.push('continue: false');
  if (json['stopReason'] !== undefined) parts.push(`stopReason: ${shownReason(json['stopReason'])}`);
  if (json['suppressOutput'] === true) parts.push('suppressOutput: true');
  if (json['systemMessage'] !== undefined) parts.push('systemMessage');
  const known = new Set(['hookSpecificOutput', 'decision', 'reason', 'continue', 'stopReason', 'suppressOutput', 'systemMessage']);
  const other = Object.keys(json).filter((k) => !known.has(k));
  if (other.length > 0) parts.push(`other fields: ${other.map((k) => sanitizeLine(k, 40).text).join(', ')}`);
  return parts.length > 0 ? `JSON ${parts.join('; ')}` : 'JSON with no fields Codewhale reads';
}

/**
 * A bounded, redacted one-line account of a peer hook's answer, for decision records,
 * `hooks test` and `/why`: which fields its JSON set, its decisions and its reasons (redacted
 * as denial reasons are), never the updated input or the context themselves (records carry
 * those on their own terms); unstructured stdout is only counted; stderr is shown only as the
 * exit-2 reason, the peer's reason channel, redacted the same way.
 */
export function describePeerAnswer(run: PeerRun): string {
  const code = run.exitCode === null ? 'no exit code' : `exit ${run.exitCode}`;
  if (run.exitCode === 2) {
    const reason = stderrReason(run);
    return sanitizeLine(`${code}; stderr reason: ${reason === null ? '(empty)' : JSON.stringify(sanitizeDenialReason(reason))}`, ANSWER_PREVIEW_CHARS).text;
  }
  const json = run.stdoutTruncated ? null : parseObject(run.stdout);
  if (json !== null) return sanitizeLine(`${code}; ${summarizeJsonAnswer(json)}`, ANSWER_PREVIEW_CHARS).text;
  const bytes = utf8ByteLength(run.stdout.trim());
  if (bytes === 0) return `${code}; no output`;
  return `${code}; ${run.stdoutTruncated ? 'oversized ' : ''}stdout that is not a JSON object (${bytes} bytes)`;
}

function parseObject(stdout: string): Record<string, unknown> | null {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const v = JSON.parse(trimmed) as unknown;
    return isJsonObject(v) ? v : null;
  } catch {
    return null;
  }
}

function readCommon(json: Record<string, unknown>): PeerCommon {
  return {
    continue: json['continue'] !== false,
    stopReason: typeof json['stopReason'] === 'string' ? json['stopReason'] : null,
    suppressOutput: json['suppressOutput'] === true,
    systemMessage: typeof json['systemMessage'] === 'string' ? json['systemMessage'] : null,
  };
}

/** The `hookSpecificOutput` object, when it is one and names this event (or none). */
function specificOutput(json: Record<string, unknown>, event: PeerEventName, warnings: string[]): Record<string, unknown> | null {
  const s = json['hookSpecificOutput'];
  if (s === undefined) return null;
  if (!isJsonObject(s)) {
    warnings.push('`hookSpecificOutput` is not an object; ignored');
    return null;
  }
  if (s['hookEventName'] !== undefined && s['hookEventName'] !== event) {
    warnings.push('`hookSpecificOutput.hookEventName` names another event; ignored');
    return null;
  }
  return s;
}

function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = sanitizeText(v, LIMITS.steeringFieldMaxChars).text;
  return t.trim() === '' ? null : t;
}

/** The exit-2 reason: stderr, trimmed and bounded; `null` when empty. Redaction is the caller's (`sanitizeDenialReason`). */
function stderrReason(run: PeerRun): string | null {
  return text(run.stderr.trim());
}

function commonWarnings(c: PeerCommon, warnings: string[]): void {
  if (c.suppressOutput) warnings.push('`suppressOutput` has no effect in Codewhale (hook output is never shown)');
  if (c.systemMessage !== null) warnings.push('`systemMessage` is not shown by Codewhale');
}

/** A PreToolUse answer read into the terms of a Codewhale gate verdict. */
export interface PeerGateAnswer {
  /** Exit 2 (a hard deny, whatever stdout said). */
  readonly exit2: boolean;
  readonly decision: 'allow' | 'deny' | 'ask' | null;
  /** Bounded, not yet redacted (the fold redacts every reason the same way). */
  readonly reason: string | null;
  /** In our field names; the tool's input validation still judges it. */
  readonly updatedInput: Record<string, unknown> | null;
  readonly additionalContext: string | null;
  readonly warnings: readonly string[];
  /** {@link describePeerAnswer}. */
  readonly answer: string;
}

/** What a gate answer needs besides the run: the tool call it is about. */
export interface PeerGateCall {
  /** Our tool name. */
  readonly tool: string;
  readonly input: unknown;
  readonly workspace: string;
}

/**
 * Read a PreToolUse hook's answer. Exit 2 denies, stderr being the reason. Stdout is read only
 * on exit 0 (as the peer does): `hookSpecificOutput.permissionDecision` `allow` / `deny` / `ask`
 * (`defer` is `ask`: nothing here defers to a later decider) with `permissionDecisionReason`,
 * `updatedInput` (mapped back to our field names, ≤ 32 KiB) and `additionalContext`; the older
 * top-level `decision: "approve" | "block"` with `reason` when there is no `permissionDecision`.
 * `continue: false` denies the call (the peer would stop the whole agent; Codewhale stops
 * this call), its `stopReason` the reason. Any other exit, or stdout that is not a JSON object,
 * is no decision (and a strict hook's no decision on a non-zero exit is no verdict, as always).
 */
export function readPeerGateAnswer(run: PeerRun, call: PeerGateCall): PeerGateAnswer {
  const warnings: string[] = [];
  const none = (): PeerGateAnswer => ({
    exit2: false,
    decision: null,
    reason: null,
    updatedInput: null,
    additionalContext: null,
    warnings,
    answer: describePeerAnswer(run),
  });
  if (run.exitCode === 2) {
    const reason = stderrReason(run);
    return { exit2: true, decision: null, reason, updatedInput: null, additionalContext: null, warnings, answer: describePeerAnswer(run) };
  }
  if (run.exitCode !== 0 || run.stdoutTruncated) return none();
  const json = parseObject(run.stdout);
  if (json === null) return none();
  const common = readCommon(json);
  commonWarnings(common, warnings);
  const specific = specificOutput(json, 'PreToolUse', warnings);
  let decision: PeerGateAnswer['decision'] = null;
  let reason: string | null = null;
  const pd = specific?.['permissionDecision'];
  if (pd === 'allow' || pd === 'deny' || pd === 'ask') decision = pd;
  else if (pd === 'defer') {
    decision = 'ask';
    warnings.push('`permissionDecision: "defer"` is treated as `ask`');
  } else if (pd !== undefined) warnings.push('unrecognised `permissionDecision`; treated as no decision');
  if (pd !== undefined) reason = text(specific?.['permissionDecisionReason']);
  else if (json['decision'] === 'approve' || json['decision'] === 'block') {
    decision = json['decision'] === 'approve' ? 'allow' : 'deny';
    reason = text(json['reason']);
  } else if (json['decision'] !== undefined) warnings.push('unrecognised `decision`; treated as no decision');
  let updatedInput: Record<string, unknown> | null = null;
  const u = specific?.['updatedInput'];
  if (u !== undefined) {
    if (!isJsonObject(u)) warnings.push('`updatedInput` is not an object; ignored');
    else {
      const mapped = fromPeerToolInput(call.tool, u, call.input, call.workspace);
      if (utf8ByteLength(JSON.stringify(mapped)) > LIMITS.updatedInputMaxBytes) warnings.push('`updatedInput` exceeds 32 KiB; ignored');
      else updatedInput = mapped;
    }
  }
  if (!common.continue) {
    decision = 'deny';
    reason = text(common.stopReason) ?? 'the hook asked to stop (`continue: false`)';
    warnings.push('`continue: false` stops only this tool call in Codewhale, not the session');
  }
  return { exit2: false, decision, reason, updatedInput, additionalContext: text(specific?.['additionalContext']), warnings, answer: describePeerAnswer(run) };
}

/** A UserPromptSubmit answer in the terms of a `message_submit` step. */
export type PeerPromptAnswer =
  | { readonly kind: 'block'; readonly reason: string | null; readonly warnings: readonly string[]; readonly answer: string }
  | { readonly kind: 'context'; readonly context: string; readonly warnings: readonly string[]; readonly answer: string }
  | { readonly kind: 'none'; readonly warnings: readonly string[]; readonly answer: string }
  /** A non-zero exit other than 2, or oversized output: `continue_on_error` decides. */
  | { readonly kind: 'failed'; readonly warnings: readonly string[]; readonly answer: string };

/**
 * Read a UserPromptSubmit hook's answer. Exit 2 blocks, stderr being the reason. On exit 0,
 * `decision: "block"` blocks with `reason`; `continue: false` blocks with `stopReason`;
 * `hookSpecificOutput.additionalContext` is context for the model; plain stdout that is not
 * JSON is context too (the peer's documented context channel for this event), sanitized and
 * bounded like any context. Any other exit is a failure, which `continue_on_error` decides.
 */
export function readPeerPromptAnswer(run: PeerRun): PeerPromptAnswer {
  const warnings: string[] = [];
  if (run.exitCode === 2) {
    const reason = stderrReason(run);
    return { kind: 'block', reason, warnings, answer: describePeerAnswer(run) };
  }
  const answer = describePeerAnswer(run);
  if (run.exitCode !== 0 || run.stdoutTruncated) return { kind: 'failed', warnings, answer };
  const trimmed = run.stdout.trim();
  if (trimmed === '') return { kind: 'none', warnings, answer };
  const json = parseObject(trimmed);
  if (json === null) {
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return { kind: 'none', warnings: ['stdout looks like JSON but is not a JSON object; ignored'], answer };
    const context = sanitizeText(trimmed, LIMITS.contextMaxChars).text;
    return { kind: 'context', context, warnings, answer };
  }
  const common = readCommon(json);
  commonWarnings(common, warnings);
  if (!common.continue) return { kind: 'block', reason: text(common.stopReason) ?? 'the hook asked to stop (`continue: false`)', warnings, answer };
  if (json['decision'] === 'block') return { kind: 'block', reason: text(json['reason']), warnings, answer };
  const specific = specificOutput(json, 'UserPromptSubmit', warnings);
  const context = text(specific?.['additionalContext']);
  return context === null ? { kind: 'none', warnings, answer } : { kind: 'context', context, warnings, answer };
}

/**
 * What an observer hook (PostToolUse, Stop, SubagentStop, Notification, SessionStart,
 * SessionEnd) asked for that Codewhale does not do, as warnings: a Stop hook asking the agent to
 * continue (`decision: "block"` or exit 2), a PostToolUse `decision: "block"` or
 * `additionalContext`, `continue: false`. An empty list means nothing was asked.
 */
export function peerObserverRequests(event: PeerEventName, run: PeerRun): string[] {
  const out: string[] = [];
  const stops = event === 'Stop' || event === 'SubagentStop';
  if (run.exitCode === 2 && (stops || event === 'PostToolUse')) {
    out.push(
      stops
        ? `${event} hook asked the agent to continue (exit 2); unsupported: \`turn_end\` and \`subagent_complete\` are observers`
        : 'PostToolUse hook exited 2 to send feedback to the model; unsupported: `tool_call_after` is an observer',
    );
  }
  if (run.exitCode !== 0 || run.stdoutTruncated) return out;
  const json = parseObject(run.stdout);
  if (json === null) return out;
  if (json['decision'] === 'block') {
    out.push(
      stops
        ? `${event} hook asked the agent to continue (\`decision: "block"\`); unsupported: \`turn_end\` and \`subagent_complete\` are observers`
        : `${event} hook answered \`decision: "block"\`; unsupported: this event is an observer`,
    );
  }
  if (json['continue'] === false) out.push(`${event} hook answered \`continue: false\`; unsupported: this event is an observer`);
  const specific = json['hookSpecificOutput'];
  if (isJsonObject(specific) && specific['additionalContext'] !== undefined) out.push(`${event} hook returned \`additionalContext\`; unsupported: this event is an observer`);
  return out;
}
