import { SHELL_TOOL_NAMES } from '@codewhale/hooks-payloads';
import type { ToolCategory } from './condition.js';

const SHELL = new Set<string>([...SHELL_TOOL_NAMES, 'Run', 'run']);
const FILE_WRITE = new Set(['write', 'edit', 'apply_patch', 'write_file', 'edit_file']);
const SAFE = new Set(['read', 'read_file', 'todo_write', 'list_dir', 'grep']);
const SAFE_FILE_ACTIONS = new Set(['read', 'list', 'search_name', 'search_content']);
const SAFE_GIT_ACTIONS = new Set(['status', 'diff', 'log', 'show', 'blame']);

/**
 * The three spellings of the shell tool; a `tool_name` condition naming one matches all three.
 * The same list as `SHELL_TOOL_NAMES` of `@codewhale/hooks-payloads` (kept under this name for
 * existing callers).
 */
export const SHELL_TOOL_ALIASES: readonly string[] = SHELL_TOOL_NAMES;

function action(input: unknown): string | null {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const a = (v as { action?: unknown }).action;
  return typeof a === 'string' ? a : null;
}

/**
 * The category a tool call belongs to for `tool_category` conditions:
 * - `shell`: `bash`, `Bash`, `exec_shell`, `Run` / `run`;
 * - `file_write`: `write`, `edit`, `apply_patch`, and `File` with a write action, an unknown
 *   action, no action or unparseable arguments (the dangerous side);
 * - `safe`: `read`, `list_dir`, `grep`, `todo_write`, `File` read/list/search actions,
 *   `Git` status/diff/log/show/blame;
 * - `other`: everything else (`agent`, `request_user_input`, MCP tools, `web.run`, other `Git`…).
 */
export function toolCategory(name: string, input?: unknown): ToolCategory {
  if (SHELL.has(name)) return 'shell';
  if (FILE_WRITE.has(name)) return 'file_write';
  if (SAFE.has(name)) return 'safe';
  if (name === 'File') {
    const a = action(input);
    return a !== null && SAFE_FILE_ACTIONS.has(a) ? 'safe' : 'file_write';
  }
  if (name === 'Git') {
    const a = action(input);
    return a !== null && SAFE_GIT_ACTIONS.has(a) ? 'safe' : 'other';
  }
  return 'other';
}
