/**
 * The three names of the shell tool: `bash` (combined output), its hidden compatibility
 * spelling `Bash`, and `exec_shell` (separate stdout and stderr). Hook conditions, receipts,
 * tool filters and the session host all use this one list.
 */
export const SHELL_TOOL_NAMES: readonly ['bash', 'Bash', 'exec_shell'] = ['bash', 'Bash', 'exec_shell'];

const SHELL = new Set<string>(SHELL_TOOL_NAMES);

export function isShellToolName(name: string): boolean {
  return SHELL.has(name);
}
