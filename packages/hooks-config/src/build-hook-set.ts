import { checkHookEntry } from './check-hook-entry.js';
import type { HooksSection } from './hooks-section.js';
import type { ConfigProblem, HookDefinition, HookSet } from './types.js';

/**
 * Merge and validate (reference §2): global entries, then project entries appended, judged as
 * one set. The user's settings govern both (the override applies to project hooks too);
 * each entry is accepted or rejected on its own; `index` is the position among the runnable
 * hooks. Problems: global settings, project-file problems, then per entry in merged order.
 */
export function buildHookSet(global: HooksSection, project: HooksSection | null = null): HookSet {
  const problems: ConfigProblem[] = [...global.problems, ...(project?.problems ?? [])];
  const hooks: HookDefinition[] = [];
  for (const entry of [...global.entries, ...(project?.entries ?? [])]) {
    const checked = checkHookEntry(entry, global.defaultTimeoutSecs);
    problems.push(...checked.problems);
    if (checked.hook) hooks.push({ index: hooks.length, ...checked.hook });
  }
  return {
    configured: global.configured || (project?.configured ?? false),
    enabled: global.enabled,
    defaultTimeoutSecs: global.defaultTimeoutSecs,
    workingDir: global.workingDir,
    hooks,
    problems,
  };
}
