import { buildHookSet } from './build-hook-set.js';
import { parseProjectHooks, skippedProjectHooks } from './parse-project-hooks.js';
import { parseUserConfig, type UserConfig } from './parse-user-config.js';
import { projectApproval, type ProjectApproval } from './project-approval.js';
import { readProjectRecord } from './project-record.js';
import { ok, type FileIssue, type Result } from './result.js';
import type { HookSet, Sha256 } from './types.js';

export interface LoadHookSetInput {
  /** The user's config.toml text and how to name it in a syntax error. */
  readonly userConfig: { readonly text: string; readonly file: string };
  /** The project, when there is a workspace: its canonical path and `hooks.toml` bytes (`null`: no file). */
  readonly project?: {
    readonly workspace: string;
    readonly bytes: Uint8Array | null;
    readonly file: string;
    readonly sha256: Sha256;
    /** Current SHA-256 of each path `scriptPathsToCheck` lists (`null`: absent). */
    readonly scriptDigests?: ReadonlyMap<string, string | null>;
    /**
     * Why the file exists but could not be read (not a regular file, over its cap, an I/O
     * error), one line naming it; `bytes` is then `null`. The project hooks are skipped with
     * this as a warning.
     */
    readonly unreadable?: string | null;
  } | null;
}

export interface LoadedHooks {
  readonly userConfig: UserConfig;
  readonly set: HookSet;
  /** The project's approval verdict, or `null` without a workspace. */
  readonly project: ProjectApproval | null;
}

/**
 * The one config loader every surface shares: parse the user's config (a TOML syntax error
 * there is the only failure), judge the project hooks file against the user's trust and
 * approval records, and merge it only when the workspace is trusted and those exact bytes
 * (and their pinned scripts) are approved. A malformed approved project file adds a warning
 * and leaves global hooks only.
 */
export function loadHookSet(input: LoadHookSetInput): Result<LoadedHooks, FileIssue> {
  const parsed = parseUserConfig(input.userConfig.text, input.userConfig.file);
  if (!parsed.ok) return parsed;
  const userConfig = parsed.value;
  const p = input.project;
  if (!p) return ok({ userConfig, set: buildHookSet(userConfig.hooks), project: null });
  const approval = projectApproval({
    record: readProjectRecord(userConfig.document, p.workspace),
    projectFile: p.bytes,
    sha256: p.sha256,
    ...(p.scriptDigests ? { scriptDigests: p.scriptDigests } : {}),
  });
  const projectHooks = p.unreadable ? skippedProjectHooks(p.file, 'project_file_unreadable', p.unreadable) : approval.loadable && p.bytes !== null ? parseProjectHooks(p.bytes, p.file) : null;
  return ok({ userConfig, set: buildHookSet(userConfig.hooks, projectHooks), project: approval });
}
