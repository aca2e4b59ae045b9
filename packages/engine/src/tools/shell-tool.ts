import * as z from 'zod';
import { buildExecutionReceipt, type ToolRunStatus } from '@codewhale/hooks-payloads';
import { runProcess, UNIX_SHELL } from '@codewhale/hooks-supervisor';
import { shellCommandEnv, shellEnvCall } from '@codewhale/hooks';
import { HeadTailBuffer } from './output-buffer.js';
import { ToolError, type ToolRunContext, type ToolDefinition, type ToolResult } from './tool.js';
import { resolveInWorkspace } from './workspace-path.js';

/** Defaults for the shell tool. */
export const SHELL_DEFAULTS = {
  timeoutSecs: 300,
  maxTimeoutSecs: 3_600,
  headBytes: 8 * 1024,
  tailBytes: 42 * 1024,
  killGraceMs: 500,
  /** After a timeout or a cancel: how long (beyond the grace) the exit is waited for. */
  reapMs: 2_000,
  drainMs: 2_000,
} as const;

const schema = z
  .object({
    command: z.string().min(1).describe('The shell command (run with sh -c)'),
    timeout: z.number().int().min(1).max(SHELL_DEFAULTS.maxTimeoutSecs).optional().describe(`Seconds before the command is killed (default ${SHELL_DEFAULTS.timeoutSecs})`),
    cwd: z.string().optional().describe('Working directory, relative to the workspace'),
  })
  .strict();

export type ShellInput = z.infer<typeof schema>;

interface RunResult {
  readonly exitCode: number | null;
  readonly status: Exclude<ToolRunStatus, 'running'>;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** Line breaks in the output bytes that were not kept (the middle of a long output). */
  readonly omittedLines: number;
}

/**
 * Run the command through the supervisor's spawner, as hooks run: its own process group,
 * stdout (and stderr, unless combined) kept head and tail, the group killed on a timeout, a
 * cancel or the exit (whatever the command left running ends with it), bounded reap and drain.
 */
async function runCommand(command: string, cwd: string, env: Record<string, string>, timeoutSecs: number, combined: boolean, signal: AbortSignal): Promise<RunResult> {
  const stdout = new HeadTailBuffer(SHELL_DEFAULTS.headBytes, SHELL_DEFAULTS.tailBytes);
  const stderr = combined ? null : new HeadTailBuffer(SHELL_DEFAULTS.headBytes, SHELL_DEFAULTS.tailBytes);
  const r = await runProcess({
    file: UNIX_SHELL,
    // `bash` shares one pipe for stdout and stderr, in the order they were written.
    args: ['-c', combined ? `exec 2>&1\n${command}` : command],
    cwd,
    env,
    input: null,
    stdout,
    stderr,
    timeoutMs: timeoutSecs * 1000,
    graceMs: SHELL_DEFAULTS.killGraceMs,
    reapMs: SHELL_DEFAULTS.reapMs,
    drainMs: SHELL_DEFAULTS.drainMs,
    shutdownMs: SHELL_DEFAULTS.drainMs,
    signal,
  });
  if (r.kind === 'not_started') throw new ToolError('failed', `the command could not be started (${r.code})`);
  const exitCode = r.exit?.code ?? null;
  const status: RunResult['status'] = r.kind === 'stopped' ? (r.by === 'timeout' ? 'timed_out' : 'killed') : exitCode === null ? 'killed' : exitCode === 0 ? 'completed' : 'failed';
  return {
    exitCode,
    status,
    stdout: stdout.text(),
    stderr: stderr?.text() ?? '',
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr?.truncated ?? false,
    omittedLines: stdout.droppedLines + (stderr?.droppedLines ?? 0),
  };
}

function shellTool(name: 'bash' | 'Bash' | 'exec_shell', hidden: boolean, description: string): ToolDefinition<ShellInput> {
  const combined = name === 'bash';
  return {
    name,
    kind: 'shell',
    hidden,
    description,
    schema,
    async execute(input, ctx: ToolRunContext): Promise<ToolResult> {
      const timeoutSecs = input.timeout ?? SHELL_DEFAULTS.timeoutSecs;
      const cwd = resolveInWorkspace(ctx.workspace, input.cwd ?? '.');
      // shell_env fires just before spawn (as @codewhale/hooks says: `exec_shell`, shell tools
      // only); a failing hook contributes nothing and never aborts the call.
      let vars: ReadonlyMap<string, string> | null = null;
      const call = shellEnvCall(name, input);
      if (call && ctx.hooks?.has('shell_env')) {
        try {
          vars = (await ctx.hooks.shellEnv({ ...call, signal: ctx.signal })).vars;
        } catch {
          vars = null;
        }
      }
      if (ctx.signal.aborted) throw new ToolError('cancelled', 'cancelled before the command started');
      // The allowlist of the parent's variables, then the shell_env pairs (@codewhale/hooks).
      const env = shellCommandEnv(ctx.parentEnv, vars);
      const run = await runCommand(input.command, cwd, env, timeoutSecs, combined, ctx.signal);
      const { stdout, stderr } = run;
      const receipt = ctx.wantsReceipt
        ? buildExecutionReceipt({
            toolName: name,
            command: input.command,
            cwd,
            exitCode: run.exitCode,
            status: run.status,
            stdout,
            stderr,
            stdoutTruncated: run.stdoutTruncated,
            stderrTruncated: run.stderrTruncated,
          })
        : null;
      const parts: string[] = [];
      if (combined) parts.push(stdout);
      else {
        if (stdout) parts.push(stdout);
        if (stderr) parts.push(`[stderr]\n${stderr}`);
      }
      const tail = run.status === 'timed_out' ? `[timed out after ${timeoutSecs}s; the process group was killed]` : run.status === 'killed' ? '[killed]' : `[exit code: ${run.exitCode}]`;
      const body = parts
        .filter((part) => part !== '')
        .map((part) => (part.endsWith('\n') ? part : `${part}\n`))
        .join('');
      return {
        content: `${body}${tail}`,
        success: run.status === 'completed',
        // omitted_lines: what a surface needs to say truly how many lines it does not show.
        metadata: { exit_code: run.exitCode, status: run.status, ...(run.stdoutTruncated || run.stderrTruncated ? { omitted_lines: run.omittedLines } : {}) },
        receipt,
      };
    },
  };
}

/** `bash`: stdout and stderr combined in one stream, as a terminal shows them. */
export const bashTool = shellTool('bash', false, 'Run a shell command in the workspace (sh -c). stdout and stderr are combined. Returns the output and the exit code.');
/** `Bash`: the same, with stdout and stderr kept separate. Hidden compatibility name. */
export const BashTool = shellTool('Bash', true, 'Run a shell command in the workspace (sh -c) with stdout and stderr kept separate.');
/** `exec_shell`: the legacy name, stdout and stderr separate. Hidden compatibility name. */
export const execShellTool = shellTool('exec_shell', true, 'Run a shell command in the workspace (sh -c) with stdout and stderr kept separate.');

/** The names of the shell tools (a session with one of them may spawn). */
export const SHELL_TOOL_NAMES: ReadonlySet<string> = new Set([bashTool.name, BashTool.name, execShellTool.name]);
