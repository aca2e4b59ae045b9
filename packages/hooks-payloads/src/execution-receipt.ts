import { LIMITS, RECEIPT_PREVIEW_MARKER, ENV_TRUNCATION_MARKER } from './limits.js';
import { isShellToolName } from './shell-tools.js';
import { normalizeExitCode, type ExitCode, type ToolRunStatus } from './context.js';
import { toJson } from './json.js';
import { utf8ByteLength, utf8PrefixEnd, utf8SuffixStart } from './utf8.js';

/** What the shell tool recorded about one settled, local, foreground, pipe-backed run. */
export interface ShellRunRecord {
  /** The tool that ran it: `bash` (combined output), `Bash` or `exec_shell` (separate). */
  readonly toolName: string;
  /** The admitted shell source, after any `updatedInput` rewrite. */
  readonly command: string;
  /** The canonical absolute directory the process started in (resolved before spawn). */
  readonly cwd: string;
  /** The observed exit code, or `null` (signal, kill, timeout). */
  readonly exitCode: ExitCode | null;
  readonly status: ToolRunStatus;
  /** The tool's retained output; for `bash`, the combined stream. */
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the tool's own capture already dropped bytes. */
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** `false` when the OS wait itself failed: the end is unknown, so there is no receipt. */
  readonly waitObserved?: boolean;
}

/** The receipt, in both its projections, or nothing. */
export interface ExecutionReceipt {
  /** Compact JSON for `DEEPSEEK_TOOL_EXECUTION_RECEIPT`, at most 32,768 bytes. */
  readonly env: string;
  readonly command: string;
  readonly cwd: string;
  readonly exitCode: bigint | null;
  readonly status: Exclude<ToolRunStatus, 'running'>;
  readonly outputKind: 'separate' | 'combined';
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

function exactField(s: string): boolean {
  return !s.includes('\0') && utf8ByteLength(s) <= LIMITS.receiptFieldMaxBytes;
}

/** Keep the first and last `side` bytes around the marker, or the whole text if it fits. */
export function receiptPreview(text: string, side: number): { text: string; cut: boolean } {
  if (utf8ByteLength(text) <= side * 2 + utf8ByteLength(RECEIPT_PREVIEW_MARKER)) return { text, cut: false };
  const head = text.slice(0, utf8PrefixEnd(text, side));
  const tail = text.slice(utf8SuffixStart(text, side));
  return { text: head + RECEIPT_PREVIEW_MARKER + tail, cut: true };
}

/**
 * Build the execution receipt, exact or absent. `command` and `cwd` are never truncated:
 * over 8 KiB, NUL, a relative `cwd`, an unobserved end, a run still going, or a JSON that
 * cannot fit 32 KiB even with the previews shrunk all mean `null`. Previews shrink by
 * halving equal head and tail byte budgets on UTF-8 boundaries, joined by
 * `[receipt preview truncated]`.
 */
export function buildExecutionReceipt(run: ShellRunRecord): ExecutionReceipt | null {
  if (!isShellToolName(run.toolName)) return null;
  if (run.waitObserved === false || run.status === 'running') return null;
  if (!exactField(run.command) || !exactField(run.cwd) || !isAbsolutePath(run.cwd)) return null;
  const exitCode = normalizeExitCode(run.exitCode);
  const outputKind = run.toolName === 'bash' ? 'combined' : 'separate';
  const rawStderr = outputKind === 'combined' ? '' : run.stderr;
  const state = exitCode !== null && (run.status === 'completed' || run.status === 'failed') ? 'completed' : 'interrupted';

  const limit = LIMITS.receiptMaxBytes;
  let side = Number.POSITIVE_INFINITY;
  for (;;) {
    const out = Number.isFinite(side) ? receiptPreview(run.stdout, side) : { text: run.stdout, cut: false };
    const err = Number.isFinite(side) ? receiptPreview(rawStderr, side) : { text: rawStderr, cut: false };
    const stdoutTruncated = run.stdoutTruncated || out.cut;
    const stderrTruncated = (outputKind === 'separate' && run.stderrTruncated) || err.cut;
    const env = toJson({
      schema_version: 1,
      command: run.command,
      cwd: run.cwd,
      state,
      scope: 'local',
      exit_code: exitCode,
      stdout: out.text,
      stderr: err.text,
      stdout_truncated: stdoutTruncated,
      stderr_truncated: stderrTruncated,
      output_kind: outputKind,
    });
    if (utf8ByteLength(env) <= limit) {
      return {
        env,
        command: run.command,
        cwd: run.cwd,
        exitCode,
        status: run.status,
        outputKind,
        stdout: out.text,
        stderr: err.text,
        stdoutTruncated,
        stderrTruncated,
      };
    }
    if (side === 0) return null;
    side = Number.isFinite(side) ? Math.floor(side / 2) : limit / 4;
  }
}

function boundedId(id: string | null | undefined): { value: string | null; truncated: boolean } {
  if (id == null) return { value: null, truncated: false };
  if (utf8ByteLength(id) <= LIMITS.toolCallAfterIdMaxBytes) return { value: id, truncated: false };
  return { value: id.slice(0, utf8PrefixEnd(id, LIMITS.toolCallAfterIdMaxBytes)) + ENV_TRUNCATION_MARKER, truncated: true };
}

/**
 * The `tool_call_after` stdin document for a native shell call with a receipt (keys in
 * contract order), or `null` when there is no receipt or the document would exceed 64 KiB.
 * `completion` is the observed status (a non-zero exit is `failed`); ids are capped at
 * 1,024 bytes plus `...[truncated]`, each with its own flag.
 */
export function buildToolCallAfterDocument(input: {
  readonly toolName: string;
  readonly sessionId: string | null;
  readonly toolCallId: string | null;
  readonly receipt: ExecutionReceipt | null;
}): string | null {
  const r = input.receipt;
  if (!r || !isShellToolName(input.toolName)) return null;
  const session = boundedId(input.sessionId);
  const call = boundedId(input.toolCallId);
  const completion = r.status === 'completed' && r.exitCode !== null && r.exitCode !== 0n ? 'failed' : r.status;
  const json = toJson({
    schema_version: 1,
    event: 'tool_call_after',
    tool_name: input.toolName,
    session_id: session.value,
    tool_call_id: call.value,
    session_id_truncated: session.truncated,
    tool_call_id_truncated: call.truncated,
    tool_name_truncated: false,
    execution_receipt: {
      schema_version: 1,
      command: r.command,
      cwd: r.cwd,
      command_truncated: false,
      cwd_truncated: false,
      execution: 'started',
      completion,
      exit_code: r.exitCode,
      stdout: r.stdout,
      stderr: r.stderr,
      stdout_truncated: r.stdoutTruncated,
      stderr_truncated: r.stderrTruncated,
      output_mode: r.outputKind,
    },
  });
  return utf8ByteLength(json) <= LIMITS.toolCallAfterDocumentMaxBytes ? json : null;
}
