import { isShellToolName } from '@codewhale/hooks-payloads';
import { toolNameMatches } from '@codewhale/hooks-conditions';
import { isTable } from './schema.js';
import { compileCommandGlob, compilePathGlob, normalizeCommand, normalizePath } from './permission-glob.js';
import { PERMISSION_ACTIONS, type PermissionCall, type PermissionMatch, type PermissionRule } from './permission-rule.js';

/**
 * The typed permission rule that decides `call`, or `null` when none matches.
 *
 * Precedence: **`deny` > `ask` > `allow`** — the strongest action among every matching rule
 * wins, whatever the order of the file; among rules of the winning action, the first in file
 * order is reported. So adding an `allow` rule can never weaken a `deny` or an `ask`, and the
 * result does not depend on rule order.
 *
 * A rule matches when all of these hold:
 * - `tool` matches the call's name (glob; the three shell spellings are one tool);
 * - `workspace`, if set, is the call's workspace;
 * - `command`, if set: the call is a shell call with a string `command`, and
 *   - for `deny` / `ask`: the glob matches the whole command **or any one of its parts**
 *     split at `;`, `&&`, `||`, `|`, `&` or a newline (so `rm -rf *` also catches
 *     `cd x && rm -rf y`);
 *   - for `allow`: the glob matches **every** part, and the command has no command
 *     substitution (`` ` ``, `$(`, `<(`, `>(`) — an `allow` for `git status*` never
 *     allows `git status; rm -rf ~`;
 * - `path`, if set: the call's input has a string `path`; a relative glob is matched against
 *   the path relative to the workspace (a path that leaves the workspace never matches it), an
 *   absolute glob against the absolute path.
 *
 * Matching is textual: a `deny` on a command is a guard rail, not a sandbox (a command can be
 * spelt in ways no glob foresees). Pure.
 */
export function matchPermission(rules: readonly PermissionRule[], call: PermissionCall): PermissionMatch | null {
  let best: PermissionRule | null = null;
  for (const rule of rules) {
    if (best !== null && rank(rule.action) >= rank(best.action)) continue;
    if (ruleMatches(rule, call)) best = rule;
  }
  return best === null ? null : { action: best.action, rule: best };
}

/** Lower is stronger: deny 0, ask 1, allow 2. */
function rank(action: PermissionRule['action']): number {
  return PERMISSION_ACTIONS.indexOf(action);
}

/** Does this one rule match the call (see {@link matchPermission})? */
export function ruleMatches(rule: PermissionRule, call: PermissionCall): boolean {
  if (!toolNameMatches(rule.tool, call.name)) return false;
  if (rule.workspace !== null && rule.workspace !== trimSlash(normalizePath(call.workspace))) return false;
  const input = isTable(call.input) ? call.input : {};
  if (rule.command !== null) {
    const command = input['command'];
    if (!isShellToolName(call.name) || typeof command !== 'string') return false;
    if (!commandMatches(rule.command, command, rule.action)) return false;
  }
  if (rule.path !== null) {
    const path = input['path'];
    if (typeof path !== 'string') return false;
    if (!pathMatches(rule.path, path, call.workspace)) return false;
  }
  return true;
}

const SUBSTITUTION = /`|\$\(|<\(|>\(/;

function commandMatches(glob: string, command: string, action: PermissionRule['action']): boolean {
  const re = compileCommandGlob(glob);
  const parts = commandParts(command);
  if (action === 'allow') return !SUBSTITUTION.test(command) && parts.length > 0 && parts.every((p) => re.test(p));
  return re.test(normalizeCommand(command)) || parts.some((p) => re.test(p));
}

/** The simple commands of a command line, split at `;`, `&&`, `||`, `|`, `&` and newlines (quotes are not honoured: splitting more is the safe side). */
export function commandParts(command: string): string[] {
  return command
    .split(/&&|\|\||[;|&\n\r]/)
    .map(normalizeCommand)
    .filter((p) => p !== '');
}

function pathMatches(glob: string, path: string, workspace: string): boolean {
  const ws = trimSlash(normalizePath(workspace));
  const p = normalizePath(path);
  const absolute = p.startsWith('/') ? p : normalizePath(`${ws}/${p}`);
  const re = compilePathGlob(normalizePath(glob) || glob);
  if (glob.startsWith('/')) return re.test(absolute);
  const relative = absolute === ws ? '' : absolute.startsWith(`${ws}/`) ? absolute.slice(ws.length + 1) : null;
  return relative !== null && re.test(relative);
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}
