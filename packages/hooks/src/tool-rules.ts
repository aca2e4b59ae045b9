import { buildExecutionReceipt, isShellToolName, normalizeExitCode, type ExecutionReceipt, type ExitCode, type ShellRunRecord, type ToolContext, type ToolRunStatus } from '@codewhale/hooks-payloads';

/**
 * The `shell_env` firing for a tool call, or `null` when the call gets none. `shell_env` is
 * the shell tool's event: it fires for `bash`, `Bash` and `exec_shell` only — never for
 * `read_file` or an MCP tool, so no credential is minted for a call that runs no command —
 * and its hooks see the tool as `exec_shell`, whichever spelling the model used.
 */
export function shellEnvCall(name: string, input: unknown): { readonly name: 'exec_shell'; readonly input: unknown } | null {
  return isShellToolName(name) ? { name: 'exec_shell', input } : null;
}

/** What an embedder knows about a settled tool call, for `tool_call_after` (and `on_error`). */
export interface ToolCallResult {
  readonly name: string;
  readonly callId?: string | null;
  readonly input: unknown;
  /** The tool's result text (what the model is shown). */
  readonly result: string;
  readonly success: boolean;
  /** Only when the tool really reported one (a process exit code); never synthesized. */
  readonly exitCode?: ExitCode | null;
  /** A shell tool's run status; ignored for other tools. */
  readonly status?: ToolRunStatus | null;
  /**
   * What a shell tool recorded about a settled, local, foreground run (command, absolute cwd,
   * exit code, status, output): the execution receipt hooks get in
   * `DEEPSEEK_TOOL_EXECUTION_RECEIPT` and on stdin. Ignored for other tools; an already built
   * receipt is taken as is.
   */
  readonly receipt?: Omit<ShellRunRecord, 'toolName'> | ExecutionReceipt | null;
  /** The call never ran: a hook, a rule or a person refused it (`on_error` does not fire for it). */
  readonly denied?: boolean;
}

const isBuilt = (r: Omit<ShellRunRecord, 'toolName'> | ExecutionReceipt): r is ExecutionReceipt => typeof (r as ExecutionReceipt).env === 'string';

/**
 * The tool context of `tool_call_after` / `on_error` for a settled call, and whether
 * `on_error` fires for it:
 * - the exit code only when the tool reported one; the run status only for a shell tool;
 * - the execution receipt (exact or absent) only for a shell tool, built from the run record;
 * - a refused call (`denied`) is not a tool failure: `on_error` does not fire for it (D32),
 *   and it carries no exit code, status or receipt.
 */
export function toolCallAfterFacts(r: ToolCallResult): { readonly tool: ToolContext; readonly receipt: ExecutionReceipt | null; readonly onError: boolean } {
  const shell = isShellToolName(r.name);
  const denied = r.denied === true;
  const receipt = !shell || denied || !r.receipt ? null : isBuilt(r.receipt) ? r.receipt : buildExecutionReceipt({ ...r.receipt, toolName: r.name });
  const exitCode = denied || r.exitCode == null || normalizeExitCode(r.exitCode) === null ? null : r.exitCode;
  const tool: ToolContext = {
    name: r.name,
    callId: r.callId ?? null,
    input: r.input,
    result: r.result,
    success: denied ? false : r.success,
    exitCode,
    status: shell && !denied ? (r.status ?? null) : null,
    executionReceipt: receipt?.env ?? null,
  };
  return { tool, receipt, onError: !r.success && !denied };
}
