/** Test helpers (not exported from the package). */
import { buildHookSet } from './build-hook-set.js';
import { parseProjectHooks } from './parse-project-hooks.js';
import { parseUserConfig, type UserConfig } from './parse-user-config.js';
import { utf8 } from './test-sha256.js';
import type { HookSet } from './types.js';

export function userConfig(text: string): UserConfig {
  const r = parseUserConfig(text, '/home/u/.codewhale/config.toml');
  if (!r.ok) throw new Error(r.issues[0]!.summary);
  return r.value;
}

/** Load `config.toml` text (and optionally a project file's text) into a validated set. */
export function load(text: string, projectText?: string): HookSet {
  const project = projectText === undefined ? null : parseProjectHooks(utf8(projectText), '/ws/.codewhale/hooks.toml');
  return buildHookSet(userConfig(text).hooks, project);
}

/** `[hooks]` plus the given `[[hooks.hooks]]` bodies. */
export function hooksToml(...entries: string[]): string {
  return `${['[hooks]', ...entries.map((e) => `[[hooks.hooks]]\n${e}`)].join('\n')}\n`;
}

export const summaries = (set: HookSet): string[] => set.problems.map((p) => p.summary);
