import { appendPermissionRule, parsePermissionRules, ruleMatches, type NewPermissionRule } from '@codewhale/hooks-config';
import type { ApprovalRequest } from './events.js';

/** The `permissions.toml` rule an "always allow" answer writes for an approval, or why none can be. */
export type AlwaysRule =
  | { readonly ok: true; readonly rule: { readonly tool: string; readonly command?: string; readonly path?: string; readonly workspace: string; readonly action: 'allow' } }
  | { readonly ok: false; readonly reason: string };

const SHELL = new Set(['bash', 'Bash', 'exec_shell']);
const GLOB = /[*?]/;
const ONCE_OR_SESSION = 'allow it once or for the session instead';

/**
 * "Always allow" remembers exactly this call, in this workspace: the tool, plus its command
 * (shell tools) or its path (file tools). What a rule would read as more than this call is
 * refused, with a reason a person can act on:
 * - a glob character (`*` in a command, `*` or `?` in a path or tool name), which a rule reads
 *   as a wildcard and so would allow more than what was approved;
 * - a rule that, read back, would not match this very call (a command with `$(…)` or several
 *   commands joined by `&&`, `;` or `|`, which an allow rule never matches), so the next
 *   identical call would ask again.
 * - an approval a hook's `ask` or an `ask` rule asked for: the gate chain lets an allow rule skip
 *   only the posture's question, so the next identical call would ask again.
 * Pure: the same request and workspace give the same answer on every surface.
 */
export function alwaysRuleFor(request: ApprovalRequest, workspace: string): AlwaysRule {
  // The gate chain lets an allow rule skip only the posture's question: a hook's `ask`, and an
  // `ask` rule (stronger than any allow rule), would ask again, so a rule would change nothing.
  if (request.reason === 'hook') return { ok: false, reason: 'a tool_call_before hook asked, and no permissions rule overrides a hook; allow it once, or change the hook' };
  if (request.reason === 'permission') return { ok: false, reason: 'an `ask` rule in permissions.toml matched, and it wins over any allow rule; allow it once, or edit that rule' };
  const input = (request.input && typeof request.input === 'object' ? request.input : {}) as Record<string, unknown>;
  if (GLOB.test(request.tool)) return { ok: false, reason: `the tool name \`${request.tool}\` contains a wildcard character` };
  let rule: NewPermissionRule & { workspace: string; action: 'allow' };
  if (SHELL.has(request.tool)) {
    const command = input['command'];
    if (typeof command !== 'string' || command.trim() === '') return { ok: false, reason: 'the call has no command to remember' };
    if (command.includes('*')) return { ok: false, reason: `the command contains \`*\`, which a rule reads as a wildcard; ${ONCE_OR_SESSION}` };
    rule = { tool: request.tool, command: command.trim(), workspace, action: 'allow' };
  } else {
    const path = input['path'];
    if (typeof path === 'string') {
      if (GLOB.test(path)) return { ok: false, reason: `the path contains \`*\` or \`?\`, which a rule reads as a wildcard; ${ONCE_OR_SESSION}` };
      rule = { tool: request.tool, path, workspace, action: 'allow' };
    } else rule = { tool: request.tool, workspace, action: 'allow' };
  }
  // Read the rule back the way the gate chain will, and check it matches this very call.
  const text = appendPermissionRule('', rule);
  if (!text.ok) return { ok: false, reason: `no rule can remember this call: ${text.issues[0]!.message}` };
  const parsed = parsePermissionRules(text.value, 'permissions.toml');
  const written = parsed.ok ? parsed.value.rules[0] : undefined;
  if (!written || !ruleMatches(written, { name: request.tool, input: request.input, workspace })) {
    return {
      ok: false,
      reason: `a permissions rule cannot match this exact call (a command with substitution or several commands never matches an allow rule); ${ONCE_OR_SESSION}`,
    };
  }
  return { ok: true, rule };
}

/** What "always allow" did: the rule it wrote and the file it wrote it to, or why it wrote nothing. */
export type AlwaysOutcome = { readonly ok: true; readonly rule: Extract<AlwaysRule, { ok: true }>['rule']; readonly file: string } | { readonly ok: false; readonly reason: string };
