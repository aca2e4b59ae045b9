import type { ApprovalRequest } from '@codewhale/engine';

/** The `permissions.toml` rule that "always allow" writes for an approval, or why it cannot. */
export type AlwaysRule = { readonly ok: true; readonly rule: { tool: string; command?: string; path?: string; workspace: string; action: 'allow' } } | { readonly ok: false; readonly reason: string };

const SHELL = new Set(['bash', 'Bash', 'exec_shell']);
const GLOB = /[*?]/;

/**
 * Exactly this call, in this workspace: the tool, plus its command (shell tools) or path (file
 * tools). A command or path with a glob character is refused — the rule would read it as a
 * wildcard and allow more than what was approved. Pure.
 */
export function alwaysRuleFor(request: ApprovalRequest, workspace: string): AlwaysRule {
  const input = (request.input && typeof request.input === 'object' ? request.input : {}) as Record<string, unknown>;
  if (GLOB.test(request.tool)) return { ok: false, reason: `the tool name \`${request.tool}\` contains a wildcard character` };
  if (SHELL.has(request.tool)) {
    const command = input['command'];
    if (typeof command !== 'string' || command.trim() === '') return { ok: false, reason: 'the call has no command to remember' };
    if (command.includes('*')) return { ok: false, reason: 'the command contains `*`, which a rule reads as a wildcard; allow it once or for the session instead' };
    return { ok: true, rule: { tool: request.tool, command: command.trim(), workspace, action: 'allow' } };
  }
  const path = input['path'];
  if (typeof path === 'string') {
    if (GLOB.test(path)) return { ok: false, reason: 'the path contains `*` or `?`, which a rule reads as a wildcard; allow it once or for the session instead' };
    return { ok: true, rule: { tool: request.tool, path, workspace, action: 'allow' } };
  }
  return { ok: true, rule: { tool: request.tool, workspace, action: 'allow' } };
}
