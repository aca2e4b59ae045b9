import { spawn } from 'node:child_process';
import * as z from 'zod';
import { buildExecutionReceipt, type ToolRunStatus } from '@codewhale/hooks-payloads';
import {
  markSessionActive,
  runShellInHost,
  scheduleSessionSweep,
  ShellContinuation,
  signalProcessGroup,
  trackProcessGroup,
  untrackProcessGroup,
  UNIX_SHELL,
  useProcessHost,
  type ShellRunResult,
  type ShellRunSpec,
} from '@codewhale/hooks-supervisor';
import { buildChildEnv } from './child-env.js';
import { HeadTailBuffer } from './output-buffer.js';
import { ToolError, type StagedToolRun, type ToolRunContext, type ToolDefinition, type ToolResult } from './tool.js';
import { resolveInWorkspace } from './workspace-path.js';

/** Defaults for the shell tool. */
export const SHELL_DEFAULTS = {
  timeoutSecs: 300,
  maxTimeoutSecs: 3_600,
  headBytes: 8 * 1024,
  tailBytes: 42 * 1024,
  killGraceMs: 500,
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
  /** Line breaks in the output bytes that were not kept (the middle of a long output); unknown from the process host. */
  readonly omittedLines?: number;
}

/**
 * Run the command through the supervisor's shared process host (the default), so the
 * agent's event loop never pays for a spawn, or in this process when the in-process spawn
 * mode is selected (`CODEWHALE_PROCESS_HOST=off`). Both paths follow the same rules.
 */
async function runCommand(command: string, cwd: string, env: Record<string, string>, timeoutSecs: number, combined: boolean, signal: AbortSignal): Promise<RunResult> {
  if (!useProcessHost()) return runCommandInProcess(command, cwd, env, timeoutSecs, combined, signal);
  return hostResult(await runShellInHost(hostSpec(command, cwd, env, timeoutSecs, combined, signal)));
}

function hostSpec(command: string, cwd: string, env: Record<string, string>, timeoutSecs: number, combined: boolean, signal: AbortSignal): ShellRunSpec {
  return {
    script: combined ? `exec 2>&1\n${command}` : command,
    cwd,
    env,
    timeoutSecs,
    combined,
    signal,
    headBytes: SHELL_DEFAULTS.headBytes,
    tailBytes: SHELL_DEFAULTS.tailBytes,
    killGraceMs: SHELL_DEFAULTS.killGraceMs,
    drainMs: SHELL_DEFAULTS.drainMs,
  };
}

function hostResult(r: ShellRunResult): RunResult {
  if (r.kind === 'spawn_error') throw new ToolError('failed', `the command could not be started (${r.code})`);
  if (r.kind === 'host_lost') throw new ToolError('failed', 'the process host exited unexpectedly; the command was killed');
  return r;
}

function runCommandInProcess(command: string, cwd: string, env: Record<string, string>, timeoutSecs: number, combined: boolean, signal: AbortSignal): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // `bash` shares one pipe for stdout and stderr, in the order they were written.
    const script = combined ? `exec 2>&1\n${command}` : command;
    const child = spawn(UNIX_SHELL, ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', combined ? 'ignore' : 'pipe'] });
    const stdout = new HeadTailBuffer(SHELL_DEFAULTS.headBytes, SHELL_DEFAULTS.tailBytes);
    const stderr = combined ? null : new HeadTailBuffer(SHELL_DEFAULTS.headBytes, SHELL_DEFAULTS.tailBytes);
    let ending: 'timed_out' | 'killed' | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const pid = child.pid;
    child.on('error', (e) => {
      // A spawn failure arrives after this function returned early (no pid): no timer or abort listener was set.
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      reject(new ToolError('failed', `the command could not be started (${(e as NodeJS.ErrnoException).code ?? 'error'})`));
    });
    if (pid === undefined) return;
    trackProcessGroup(pid);
    markSessionActive(pid);
    child.stdout!.on('data', (c: Uint8Array) => stdout.push(c));
    child.stderr?.on('data', (c: Uint8Array) => stderr!.push(c));
    const stop = (why: 'timed_out' | 'killed') => {
      ending ??= why;
      signalProcessGroup(pid, 'SIGTERM');
      killTimer = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), SHELL_DEFAULTS.killGraceMs);
    };
    timer = setTimeout(() => stop('timed_out'), timeoutSecs * 1000);
    onAbort = () => stop('killed');
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('exit', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort!);
      // Whatever the command left running in its group ends with it.
      signalProcessGroup(pid, 'SIGTERM');
      const finalKill = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), SHELL_DEFAULTS.killGraceMs);
      const streams = [child.stdout, child.stderr].filter((s): s is NonNullable<typeof s> => s != null);
      let open = streams.length;
      const finish = () => {
        clearTimeout(drainTimer);
        clearTimeout(finalKill);
        clearTimeout(killTimer);
        signalProcessGroup(pid, 'SIGKILL');
        untrackProcessGroup(pid);
        scheduleSessionSweep(pid);
        const status: RunResult['status'] = ending ?? (code === null ? 'killed' : code === 0 ? 'completed' : 'failed');
        resolve({ exitCode: code, status, stdout: stdout.text(), stderr: stderr?.text() ?? '', stdoutTruncated: stdout.truncated, stderrTruncated: stderr?.truncated ?? false, omittedLines: stdout.droppedLines + (stderr?.droppedLines ?? 0) });
      };
      const drainTimer = setTimeout(() => {
        for (const s of streams) s.destroy();
        finish();
      }, SHELL_DEFAULTS.drainMs);
      if (open === 0) finish();
      for (const s of streams) {
        if (s.readableEnded || s.destroyed) {
          if (--open === 0) finish();
          continue;
        }
        s.once('close', () => {
          if (--open === 0) finish();
        });
      }
    });
  });
}

function shellTool(name: 'bash' | 'Bash' | 'exec_shell', hidden: boolean, description: string): ToolDefinition<ShellInput> {
  const combined = name === 'bash';
  return {
    name,
    kind: 'shell',
    hidden,
    description,
    schema,
    // With no shell_env hook the command's directory and environment are known before its
    // gates run, so the process host can start it the moment they allow it (see StagedToolRun).
    stage(input, ctx: ToolRunContext): StagedToolRun | null {
      if (!useProcessHost() || ctx.hooks?.has('shell_env')) return null;
      let cwd: string;
      try {
        cwd = resolveInWorkspace(ctx.workspace, input.cwd ?? '.');
      } catch {
        // The usual path reports it.
        return null;
      }
      const timeoutSecs = input.timeout ?? SHELL_DEFAULTS.timeoutSecs;
      return { input, continuation: new ShellContinuation(hostSpec(input.command, cwd, buildChildEnv(ctx.parentEnv, null), timeoutSecs, combined, ctx.signal)) };
    },
    async execute(input, ctx: ToolRunContext): Promise<ToolResult> {
      const staged = ctx.staged?.input === input ? ctx.staged.continuation : null;
      const ranStaged = staged ? await staged.result() : null;
      const timeoutSecs = input.timeout ?? SHELL_DEFAULTS.timeoutSecs;
      let cwd: string;
      let run: RunResult;
      if (staged && ranStaged) {
        cwd = staged.spec.cwd;
        run = hostResult(ranStaged);
      } else {
        cwd = resolveInWorkspace(ctx.workspace, input.cwd ?? '.');
        // shell_env fires just before spawn; a failing hook contributes nothing and never aborts the call.
        let vars: ReadonlyMap<string, string> | null = null;
        if (ctx.hooks?.has('shell_env')) {
          try {
            vars = (await ctx.hooks.shellEnv({ name: 'exec_shell', input })).vars;
          } catch {
            vars = null;
          }
        }
        if (ctx.signal.aborted) throw new ToolError('cancelled', 'cancelled before the command started');
        const env = buildChildEnv(ctx.parentEnv, vars);
        run = await runCommand(input.command, cwd, env, timeoutSecs, combined, ctx.signal);
      }
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
      const tail =
        run.status === 'timed_out'
          ? `[timed out after ${timeoutSecs}s; the process group was killed]`
          : run.status === 'killed'
            ? '[killed]'
            : `[exit code: ${run.exitCode}]`;
      const body = parts
        .filter((part) => part !== '')
        .map((part) => (part.endsWith('\n') ? part : `${part}\n`))
        .join('');
      return {
        content: `${body}${tail}`,
        success: run.status === 'completed',
        // omitted_lines: what a surface needs to say truly how many lines it does not show.
        metadata: { exit_code: run.exitCode, status: run.status, ...((run.stdoutTruncated || run.stderrTruncated) && run.omittedLines !== undefined ? { omitted_lines: run.omittedLines } : {}) },
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
