import { randomBytes } from 'node:crypto';
import {
  buildExecutionReceipt,
  buildSessionErrorDocument,
  buildSubagentCompleteDocument,
  buildSubagentSpawnDocument,
  buildToolCallAfterDocument,
  buildTurnEndDocument,
  INITIAL_SESSION_STATE,
  observeSessionState,
  subagentCompletionStatus,
  subagentPreview,
  toJson,
  uiModeLabel,
  type CanonicalMode,
  type HookContext,
  type HookEventName,
  type JsonValue,
  type SessionObservation,
  type ToolContext,
  type ToolRunStatus,
  type WaitingReason,
} from '@codewhale/hooks-payloads';
import { SHELL_TOOL_ALIASES } from '@codewhale/hooks-conditions';

/** What the user asked `hooks test` to simulate, already checked. */
export interface SyntheticInput {
  readonly event: HookEventName;
  readonly sessionId: string;
  readonly workspace: string;
  readonly mode: CanonicalMode;
  readonly model: string;
  readonly tool: string | null;
  readonly callId: string;
  readonly input: unknown;
  readonly text: string | null;
  readonly exitCode: number | null;
  readonly error: string | null;
  readonly reason: WaitingReason;
}

/** An observer event's firing, built the way the session host builds it. */
export interface SyntheticEvent {
  /** The context `HookRuntime.runNow` takes (the event and session id are added by the runtime). */
  readonly ctx: Omit<HookContext, 'event' | 'sessionId'>;
  /** The exact stdin document, or `null` when the event has none (EOF at once). */
  readonly stdin: string | null;
  /** Facts worth telling the user about this firing (one line each). */
  readonly facts: readonly string[];
}

const isShell = (name: string): boolean => SHELL_TOOL_ALIASES.includes(name);

function shellStatus(exitCode: number | null, failed: boolean): ToolRunStatus {
  if (exitCode !== null) return exitCode === 0 ? 'completed' : 'failed';
  return failed ? 'failed' : 'completed';
}

/** The settled tool behind `tool_call_after` / a tool-failure `on_error`, with its receipt when it has one. */
function settledTool(input: SyntheticInput, resultText: string, failed: boolean, facts: string[]): { tool: ToolContext; receipt: ReturnType<typeof buildExecutionReceipt> } {
  const name = input.tool!;
  const shell = isShell(name);
  const command = typeof (input.input as { command?: unknown } | null)?.command === 'string' ? (input.input as { command: string }).command : null;
  let receipt: ReturnType<typeof buildExecutionReceipt> = null;
  const status = shell ? shellStatus(input.exitCode, failed) : null;
  if (shell && input.exitCode !== null && command !== null) {
    receipt = buildExecutionReceipt({
      toolName: name,
      command,
      cwd: input.workspace,
      exitCode: input.exitCode,
      status: status!,
      stdout: resultText,
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    });
  }
  if (shell && input.exitCode === null) facts.push('no --exit-code: the tool reported none, so there is no execution receipt (and no exit_code condition can match)');
  else if (shell && command === null) facts.push('the input has no string `command`, so there is no execution receipt');
  return {
    tool: {
      name,
      callId: input.callId,
      input: input.input,
      result: resultText,
      success: !failed,
      exitCode: input.exitCode,
      status,
      executionReceipt: receipt?.env ?? null,
    },
    receipt,
  };
}

function transition(from: SessionObservation, to: SessionObservation): string {
  const first = observeSessionState(INITIAL_SESSION_STATE, from);
  const t = observeSessionState(first.machine, to).transition;
  return JSON.stringify(t!.payload);
}

/**
 * Build an observer event's context and stdin document synthetically, with the same builders
 * and the same field choices the session host uses for a real firing. Steering events
 * (`message_submit`, `tool_call_before`, `shell_env`) are built by the runtime itself.
 */
export function syntheticObserverEvent(input: SyntheticInput): SyntheticEvent {
  const facts: string[] = [];
  const mode = uiModeLabel(input.mode);
  const base = { workspace: input.workspace, model: input.model, mode, totalTokens: 0 };
  const common = { agentId: 'agent_1', sessionId: input.sessionId, workspace: input.workspace, mode, model: input.model, totalTokens: 0 };
  switch (input.event) {
    case 'session_start':
    case 'session_end':
      return { ctx: base, stdin: null, facts };
    case 'mode_change': {
      const previous = input.mode === 'work' ? 'plan' : 'work';
      facts.push(`transition: ${uiModeLabel(previous)} \u2192 ${mode}`);
      return { ctx: { ...base, previousMode: uiModeLabel(previous) }, stdin: null, facts };
    }
    case 'turn_end': {
      const doc = buildTurnEndDocument({
        sessionId: input.sessionId,
        workspace: input.workspace,
        mode,
        createdAt: Date.now(),
        modelBacked: true,
        provider: 'deepseek',
        billingSurface: null,
        model: input.model,
        turnId: `turn_${randomBytes(4).toString('hex')}`,
        status: input.error === null ? 'completed' : 'failed',
        error: input.error,
        durationMs: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        totals: { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 },
        toolCount: 0,
        queuedMessageCount: 0,
      });
      return { ctx: base, stdin: toJson(doc as JsonValue), facts };
    }
    case 'subagent_spawn': {
      const prompt = input.text ?? 'Summarise the README.';
      const doc = buildSubagentSpawnDocument({ ...common, prompt });
      return { ctx: { ...base, message: subagentPreview(prompt).preview }, stdin: JSON.stringify(doc), facts };
    }
    case 'subagent_complete': {
      const result = input.text ?? 'The README describes the project.';
      // --error means a failed sub-agent; otherwise the result text decides, as a summary line would.
      const derived = subagentCompletionStatus(result);
      const status = input.error !== null ? 'failed' : derived !== 'unknown' ? derived : 'completed';
      const doc = buildSubagentCompleteDocument({ ...common, result, status });
      return { ctx: { ...base, message: subagentPreview(result).preview }, stdin: JSON.stringify(doc), facts };
    }
    case 'tool_call_after': {
      const failed = input.error !== null || (input.exitCode !== null && input.exitCode !== 0);
      const { tool, receipt } = settledTool(input, input.text ?? input.error ?? '', failed, facts);
      const doc = buildToolCallAfterDocument({ toolName: tool.name, sessionId: input.sessionId, toolCallId: input.callId, receipt });
      if (doc === null && receipt === null && !isShell(tool.name)) facts.push(`\`${tool.name}\` is not a shell tool: no stdin document, no execution receipt`);
      return { ctx: { ...base, tool }, stdin: doc, facts };
    }
    case 'on_error': {
      if (input.tool === null) {
        const error = input.error ?? 'HTTP 503: the model provider is overloaded';
        facts.push('a transport error with no tool behind it (pass --tool for a tool failure)');
        return { ctx: { ...base, error }, stdin: null, facts };
      }
      const resultText = input.text ?? input.error ?? 'command failed';
      const { tool } = settledTool(input, resultText, true, facts);
      return { ctx: { ...base, error: input.error ?? `tool \`${tool.name}\` failed: ${resultText}`, tool }, stdin: null, facts };
    }
    case 'session_busy':
      return { ctx: base, stdin: transition({ state: 'idle' }, { state: 'in_progress' }), facts };
    case 'waiting_for_user':
      return { ctx: base, stdin: transition({ state: 'in_progress' }, { state: 'waiting', reason: input.reason }), facts };
    case 'session_idle':
      return {
        ctx: base,
        stdin: transition({ state: 'in_progress' }, { state: 'idle', lastTurnStatus: input.error === null ? 'completed' : 'failed' }),
        facts,
      };
    case 'session_error':
      return { ctx: base, stdin: JSON.stringify(buildSessionErrorDocument('failed', input.error ?? 'the turn failed')), facts };
    case 'message_submit':
    case 'tool_call_before':
    case 'shell_env':
      throw new TypeError(`${input.event} is a steering event`);
  }
}
