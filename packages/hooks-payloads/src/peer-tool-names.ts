import { isShellToolName } from './shell-tools.js';

/**
 * How a hook entry talks to its command (`protocol = …` on a `[[hooks.hooks]]` entry):
 *
 * - `codewhale` (the default): the contract's `DEEPSEEK_*` variables, its stdin documents and
 *   its answers (`{"decision": …}`, exit 2).
 * - `claude-code`: the stdin document and the answers of Claude Code's command hooks (which
 *   Codex's hooks share where their documents match), so a script written for those agents runs
 *   unchanged. Everything else — conditions, timeouts, process groups, strictness, the fold,
 *   trust and approval, bounding and redaction — stays Codewhale's.
 */
export type HookProtocol = 'codewhale' | 'claude-code';

/** The protocols, the default first. */
export const HOOK_PROTOCOLS: readonly HookProtocol[] = Object.freeze(['codewhale', 'claude-code'] as const);

/** Is `value` a protocol name (exact, case-sensitive)? */
export function isHookProtocol(value: unknown): value is HookProtocol {
  return typeof value === 'string' && (HOOK_PROTOCOLS as readonly string[]).includes(value);
}

/**
 * Our built-in tools and the peer's name for each. The three spellings of the shell tool are
 * all the peer's `Bash`. Kept as pairs so the reverse direction is read off the same table.
 */
const OURS_TO_PEER: Readonly<Record<string, string>> = Object.freeze({
  bash: 'Bash',
  Bash: 'Bash',
  exec_shell: 'Bash',
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  grep: 'Grep',
  list_dir: 'LS',
  todo_write: 'TodoWrite',
  agent: 'Task',
});

/**
 * Peer tool names and ours. `MultiEdit` is our `edit` too (which takes several edits); the peer's
 * newer name for its sub-agent tool, `Agent`, is our `agent`.
 */
const PEER_TO_OURS: Readonly<Record<string, string>> = Object.freeze({
  Bash: 'bash',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  Grep: 'grep',
  LS: 'list_dir',
  TodoWrite: 'todo_write',
  Task: 'agent',
  Agent: 'agent',
});

/** Peer tool names that name one of our tools (what {@link peerToOurToolName} maps), sorted. */
export const PEER_TOOL_NAMES: readonly string[] = Object.freeze(Object.keys(PEER_TO_OURS).sort());

/** Is `name` an MCP tool name (`mcp__server__tool`)? Both agents spell these the same way. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith('mcp__');
}

/**
 * The peer's spelling of one of our tool names: `bash`/`Bash`/`exec_shell` → `Bash`, `read` →
 * `Read`, `write` → `Write`, `edit` → `Edit`, `grep` → `Grep`, `list_dir` → `LS`, `todo_write` →
 * `TodoWrite`, `agent` → `Task`. MCP names and every other name are returned unchanged (a
 * tool the peer has no name for keeps ours, so a hook's matcher can still name it).
 */
export function ourToPeerToolName(name: string): string {
  return Object.hasOwn(OURS_TO_PEER, name) ? OURS_TO_PEER[name]! : name;
}

/**
 * Our name for a peer tool name, or `null` when we have no such tool (`WebFetch`, `Glob`,
 * `NotebookEdit`…). MCP names are returned unchanged. The peer's `Bash` is our `bash`, which
 * a `tool_name` condition treats as every spelling of the shell tool.
 */
export function peerToOurToolName(name: string): string | null {
  if (isMcpToolName(name)) return name;
  return Object.hasOwn(PEER_TO_OURS, name) ? PEER_TO_OURS[name]! : null;
}

/** Do two of our tool names name the same tool (the shell tool's three spellings are one)? */
export function sameTool(a: string, b: string): boolean {
  return a === b || (isShellToolName(a) && isShellToolName(b));
}
