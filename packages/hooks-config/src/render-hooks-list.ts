import { LIMITS } from '@codewhale/hooks-payloads';
import type { HooksList, HooksListHook, HooksListProject } from './hooks-list.js';

/** `hooks list` with nothing configured. */
export const NO_HOOKS_TEXT = 'No hooks configured. Add a `[[hooks.hooks]]` entry to `~/.codewhale/config.toml` to define one.';
/** `hooks list` when entries exist but none loaded. */
export const NO_RUNNABLE_HOOKS_TEXT = 'No runnable hooks. Every configured entry was rejected at load:';
/** The banner when `[hooks].enabled = false`. */
export const HOOKS_DISABLED_BANNER = 'Hooks are globally disabled \u2014 set `[hooks].enabled = true` in `config.toml` to fire them.';

/** `30s`, or ``5s — `[hooks].default_timeout_secs` override``, plus `clamped to the maximum` (D20). */
export function describeTimeout(hook: Pick<HooksListHook, 'effectiveTimeoutSecs' | 'timeoutOverridden' | 'timeoutClamped'>): string {
  const notes: string[] = [];
  if (hook.timeoutOverridden) notes.push('`[hooks].default_timeout_secs` override');
  if (hook.timeoutClamped) notes.push(`clamped to the ${LIMITS.maxTimeoutSecs}s maximum`);
  return `${hook.effectiveTimeoutSecs}s${notes.length ? ` \u2014 ${notes.join(', ')}` : ''}`;
}

/** One line about the project hooks' approval, or `null` when there is no project file. */
export function describeProjectStatus(project: HooksListProject): string | null {
  const scripts = project.changedScripts ? ` (${project.changedScripts} pinned script${project.changedScripts === 1 ? '' : 's'} changed)` : '';
  switch (project.state) {
    case 'none':
      return null;
    case 'approved':
      if (!project.trusted) return 'approved, but the workspace is not trusted \u2014 not loaded';
      return project.loaded ? 'approved \u2014 project hooks are loaded' : 'approved, but the file cannot be read or parsed \u2014 not loaded (see configuration problems)';
    case 'pending':
      return 'pending approval \u2014 not loaded; review with `hooks review`, then `hooks approve <digest>`';
    case 'changed':
      return `changed since approval${scripts} \u2014 not loaded; review again and approve the new digest`;
    case 'revoked':
      return 'revoked \u2014 not loaded; `hooks approve <digest>` enables them again';
  }
}

function projectSection(project: HooksListProject | null): string {
  const status = project ? describeProjectStatus(project) : null;
  if (!project || status === null) return '';
  return `### project hooks\n  - status: ${status}\n  - digest: ${project.digest ?? '(none)'}\n  - workspace trusted: ${project.trusted ? 'yes' : 'no'}\n\n`;
}

/**
 * `hooks list` as text (reference §18.3): groups per event in alphabetical order, each hook with
 * its label, `[project]` for a project hook, `[bg, submitted not awaited]` when it really runs
 * in the background, `[protocol claude-code]` for a hook speaking a peer's protocol, the timeout the runtime applies and where it came from, the condition
 * and a 60-char command preview; then the project approval state, configuration problems and
 * the disabled banner. Never a raw command, env value or path.
 */
export function renderHooksList(list: HooksList): string {
  const problems = list.problems.map((p) => `  - ${p.summary}\n`).join('');
  let out: string;
  if (list.hooks.length === 0 && list.problems.length === 0) {
    out = `${NO_HOOKS_TEXT}\n\n${projectSection(list.project)}`;
  } else if (list.hooks.length === 0) {
    out = `${NO_RUNNABLE_HOOKS_TEXT}\n\n${problems}\n${projectSection(list.project)}`;
  } else {
    const n = list.hooks.length;
    out = `${n} configured hook(s) (global enabled: ${list.enabled ? 'yes' : 'no \u2014 all hooks suppressed'}):\n\n`;
    const events = [...new Set(list.hooks.map((h) => h.event))].sort();
    for (const event of events) {
      out += `### ${event}\n`;
      for (const h of list.hooks.filter((x) => x.event === event)) {
        const source = h.source === 'project' ? ' [project]' : '';
        const bg = h.background ? ' [bg, submitted not awaited]' : '';
        const protocol = h.protocol === 'codewhale' ? '' : ` [protocol ${h.protocol}]`;
        const cond = h.condition && h.condition.type !== 'always' ? ` if ${h.conditionSummary}` : '';
        out += `  - ${h.label}${source}${protocol}${bg} (timeout ${describeTimeout(h)})${cond}\n      $ ${h.commandPreview}\n`;
      }
      out += '\n';
    }
    out += projectSection(list.project);
    if (problems) out += `### configuration problems\n${problems}\n`;
    if (!list.enabled) out += `${HOOKS_DISABLED_BANNER}\n`;
  }
  return out.trimEnd();
}
