/**
 * The three spellings of the shell tool: `bash` (combined output), `Bash` and `exec_shell`
 * (separate streams). They are one tool everywhere: a `tool_name` condition or a permission
 * rule naming one matches all three, `shell_env` fires for each, and each may carry an
 * execution receipt.
 */
export const SHELL_TOOL_NAMES: readonly ['bash', 'Bash', 'exec_shell'] = Object.freeze(['bash', 'Bash', 'exec_shell'] as const);

/** One of {@link SHELL_TOOL_NAMES}. */
export type ShellToolName = (typeof SHELL_TOOL_NAMES)[number];

/** Is `name` a spelling of the shell tool (case-sensitive: `BASH` is not)? */
export function isShellToolName(name: string): name is ShellToolName {
  return (SHELL_TOOL_NAMES as readonly string[]).includes(name);
}
