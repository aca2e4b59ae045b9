import type * as z from 'zod';
import type { ExecutionReceipt, ToolRunStatus } from '@codewhale/hooks-payloads';
import type { EngineHooks } from '../engine-hooks.js';
import { EngineError } from '../errors.js';

/** What a tool is, for the Plan-mode gate and approval postures. */
export type ToolKind =
  /** Reads only (read, list_dir, grep). */
  | 'read'
  /** Changes files in the workspace (write, edit). */
  | 'write'
  /** Runs a shell command. */
  | 'shell'
  /** Talks to the user (request_user_input). */
  | 'interactive'
  /** Starts a sub-agent. */
  | 'agent'
  /** Session bookkeeping (todo_write). */
  | 'meta';

/** A tool's answer. `receipt` travels beside the result and is never stored in it. */
export interface ToolResult {
  readonly content: string;
  /** `false` for a command that exited non-zero: still an executed result (the hook context applies). */
  readonly success: boolean;
  /** `omitted_lines`: line breaks in the middle of a long output that the tool did not keep. */
  readonly metadata?: { readonly exit_code?: number | null; readonly status?: ToolRunStatus; readonly omitted_lines?: number };
  readonly receipt?: ExecutionReceipt | null;
}

/** Why a tool call did not produce a result. The model sees `Error: <message>`. */
export type ToolErrorKind = 'unknown_tool' | 'not_allowed' | 'parse_error' | 'invalid_input' | 'plan_mode' | 'hook_denied' | 'approval_denied' | 'path_escape' | 'not_found' | 'failed' | 'cancelled';

export class ToolError extends EngineError {
  readonly kind: ToolErrorKind;
  constructor(kind: ToolErrorKind, message: string, options?: { cause?: unknown }) {
    super(kind === 'cancelled' ? 'cancelled' : 'tool', message, options);
    this.name = 'ToolError';
    this.kind = kind;
  }
  static override isInstance(e: unknown): e is ToolError {
    return e instanceof ToolError;
  }
}

/**
 * What a running tool is given: its workspace, call id, cancellation signal, hooks and
 * services. (Named apart from `@codewhale/hooks-payloads`' `ToolContext`, which is what a
 * tool-scoped *hook event* knows about a call.)
 */
export interface ToolRunContext {
  /** The canonical (symlink-resolved) workspace directory. */
  readonly workspace: string;
  readonly callId: string;
  readonly toolName: string;
  readonly signal: AbortSignal;
  /** Operator hooks for `shell_env`, or `null` (sub-agents, no hooks). */
  readonly hooks: EngineHooks | null;
  /** Build execution receipts (only while a `tool_call_after` / `on_error` hook is configured). */
  readonly wantsReceipt: boolean;
  /** The session's environment for child processes (before the allowlist is applied). */
  readonly parentEnv: Readonly<Record<string, string | undefined>>;
  /** Session trust (`/trust on`): file tools may reach paths outside the workspace. Off by default. */
  readonly outsideWorkspace?: boolean;
  readonly services: ToolServices;
}

/** Session-level services tools call back into. */
export interface ToolServices {
  setTodos(todos: readonly { content: string; status: string }[]): void;
  askUser(request: UserInputRequest): Promise<UserInputAnswer | null>;
  runSubagent(request: { prompt: string; name?: string }, signal: AbortSignal): Promise<{ agentId: string; result: string; status: string }>;
}

export interface UserInputQuestion {
  readonly id: string;
  readonly header: string;
  readonly question: string;
  readonly options: readonly { label: string; description?: string }[];
  readonly allowFreeText?: boolean;
  readonly multiSelect?: boolean;
}

export interface UserInputRequest {
  readonly id: string;
  readonly questions: readonly UserInputQuestion[];
}

/** Answers keyed by question id. */
export type UserInputAnswer = Readonly<Record<string, string | readonly string[]>>;

/** A tool: a name the model calls, an input schema (validated before and after hooks), a body. */
// biome-ignore lint/suspicious/noExplicitAny: a tool list holds tools of every input type
export interface ToolDefinition<I = any> {
  readonly name: string;
  readonly description: string;
  readonly schema: z.ZodType<I>;
  readonly kind: ToolKind;
  /** Hidden compatibility names are executable but not offered to the model. */
  readonly hidden?: boolean;
  execute(input: I, ctx: ToolRunContext): Promise<ToolResult>;
}
