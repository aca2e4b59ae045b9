import { realpathSync, statSync } from 'node:fs';
import { USER_CONFIG_MAX_BYTES, readRegularFile } from './read-regular-file.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  hookSetDigest,
  loadHookSet,
  parseUserConfig,
  PROJECT_HOOKS_RELATIVE_PATH,
  readProjectRecord,
  scriptPathsToCheck,
  type FileIssue,
  type HookDefinition,
  type LoadedHooks,
  type Result,
} from '@codewhale/hooks-config';
import { LIMITS } from '@codewhale/hooks-payloads';

import { scriptDigests } from './script-digests.js';
import { sha256Hex } from './sha256-hex.js';
import type { RevocationCheck } from './hook-runtime.js';

export { sha256Hex } from './sha256-hex.js';

/** Where Codewhale keeps its state and the user's config (D7). */
export interface CodewhalePaths {
  /** `$CODEWHALE_HOME`, default `~/.codewhale`. */
  readonly home: string;
  /** `--config`, else `$CODEWHALE_CONFIG_PATH`, else `<home>/config.toml`. */
  readonly configPath: string;
  /** `<home>/audit.log`. */
  readonly auditLog: string;
}

export function resolvePaths(env: Readonly<Record<string, string | undefined>> = process.env, configFlag?: string | null): CodewhalePaths {
  const home = resolve(env.CODEWHALE_HOME || join(homedir(), '.codewhale'));
  const configPath = resolve(configFlag || env.CODEWHALE_CONFIG_PATH || env.DEEPSEEK_CONFIG_PATH || join(home, 'config.toml'));
  return { home, configPath, auditLog: join(home, 'audit.log') };
}

/** The project hooks file of a workspace. */
export function projectHooksPath(workspace: string): string {
  return join(workspace, ...PROJECT_HOOKS_RELATIVE_PATH.split('/'));
}

/**
 * The project hooks file's bytes (`null`: none), or why it exists but cannot be used. A file
 * over 1 MiB yields its first 1 MiB + 1 bytes, so the loader reports it as too large.
 */
function readProjectFile(path: string): { bytes: Uint8Array | null; unreadable: string | null } {
  const read = readRegularFile(path, LIMITS.projectHooksFileMaxBytes);
  if (read.ok) return { bytes: read.bytes, unreadable: null };
  if (read.problem === 'missing') return { bytes: null, unreadable: null };
  if (read.problem === 'too_large') return { bytes: new Uint8Array(LIMITS.projectHooksFileMaxBytes + 1), unreadable: null };
  return { bytes: null, unreadable: read.message };
}

/** Everything a surface needs to run hooks for a workspace, read from disk once. */
export interface HookConfiguration {
  readonly paths: CodewhalePaths;
  /** The canonical workspace, or `null` when none was given. */
  readonly workspace: string | null;
  readonly configText: string;
  readonly configExists: boolean;
  readonly loaded: LoadedHooks;
  /** SHA-256 of the runnable hook set (recorded in decision records). */
  readonly digest: string;
  /** The project file's path and its bytes as read (`null`: no file). */
  readonly projectFile: string | null;
  readonly projectBytes: Uint8Array | null;
}

/**
 * The user's config.toml as text: `exists: false` when there is none, an issue naming the
 * file when it is not a regular file, over 16 MiB, or unreadable.
 */
export function readUserConfig(path: string): Result<{ text: string; exists: boolean }, FileIssue> {
  const read = readRegularFile(path, USER_CONFIG_MAX_BYTES);
  if (!read.ok) {
    if (read.problem === 'missing') return { ok: true, value: { text: '', exists: false } };
    const code = read.problem === 'not_regular' ? 'not_regular_file' : read.problem === 'too_large' ? 'file_too_large' : 'unreadable';
    return { ok: false, issues: [{ code, file: path, line: null, column: null, message: read.message, summary: read.message }] };
  }
  try {
    // Decoded as before (a byte-order mark kept, invalid bytes replaced); the TOML parser judges the text.
    return { ok: true, value: { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(read.bytes), exists: true } };
  } catch {
    const message = `cannot decode ${path}`;
    return { ok: false, issues: [{ code: 'unreadable', file: path, line: null, column: null, message, summary: message }] };
  }
}

/**
 * The one loader every surface shares: the user's config, plus the
 * workspace's `hooks.toml` merged only when the workspace is trusted and those exact bytes and
 * the scripts they name are approved in the user's config. A TOML syntax error in the user's
 * config is the only failure; a missing config file means no hooks.
 */
export function loadHookConfiguration(options: { paths: CodewhalePaths; workspace?: string | null }): Result<HookConfiguration, FileIssue> {
  const { paths } = options;
  const config = readUserConfig(paths.configPath);
  if (!config.ok) return config;
  const { text: configText, exists: configExists } = config.value;
  let workspace: string | null = null;
  if (options.workspace) {
    try {
      workspace = realpathSync(options.workspace);
    } catch {
      workspace = resolve(options.workspace);
    }
  }
  const projectFile = workspace ? projectHooksPath(workspace) : null;
  // A project file that is not a regular file (a FIFO would block forever, a directory fails
  // every read) is skipped with a warning; it never fails the command.
  const project = projectFile ? readProjectFile(projectFile) : { bytes: null, unreadable: null };
  const projectBytes = project.bytes;
  let digests: Map<string, string | null> | undefined;
  if (workspace && projectBytes) {
    const parsed = parseUserConfig(configText, paths.configPath);
    if (parsed.ok) digests = scriptDigests(workspace, scriptPathsToCheck(readProjectRecord(parsed.value.document, workspace), projectBytes));
  }
  const loaded = loadHookSet({
    userConfig: { text: configText, file: paths.configPath },
    project: workspace ? { workspace, bytes: projectBytes, file: projectFile!, sha256: sha256Hex, unreadable: project.unreadable, ...(digests ? { scriptDigests: digests } : {}) } : null,
  });
  if (!loaded.ok) return loaded;
  return {
    ok: true,
    value: { paths, workspace, configText, configExists, loaded: loaded.value, digest: hookSetDigest(loaded.value.set, sha256Hex), projectFile, projectBytes },
  };
}

export const REVOKED_ERROR = 'project hook approval was revoked; hook not started';

/**
 * D14: revocation takes effect at once for future and queued launches. The returned check
 * re-reads the user's config when it changed (by size and mtime) and refuses to start a
 * project hook once its workspace's approval is revoked or no longer matches the approval the
 * session loaded. Global hooks are never affected. A config that cannot be read or parsed
 * refuses project hooks (fail closed).
 */
export function projectRevocationCheck(config: HookConfiguration): RevocationCheck {
  const workspace = config.workspace;
  const approvedAtLoad = config.loaded.project?.approvedDigest ?? null;
  let stamp = '';
  let revoked = false;
  const refresh = (): void => {
    let next: string;
    try {
      const st = statSync(config.paths.configPath);
      next = `${st.size}:${st.mtimeMs}`;
    } catch {
      next = 'missing';
    }
    if (next === stamp) return;
    stamp = next;
    try {
      const read = readUserConfig(config.paths.configPath);
      if (!read.ok) {
        revoked = true;
        return;
      }
      const parsed = parseUserConfig(read.value.text, config.paths.configPath);
      if (!parsed.ok || !workspace) {
        revoked = true;
        return;
      }
      const record = readProjectRecord(parsed.value.document, workspace);
      revoked = record.revoked || !record.trusted || record.approvedSha256 === null || record.approvedSha256 !== approvedAtLoad;
    } catch {
      revoked = true;
    }
  };
  const appliesTo = (hook: HookDefinition): boolean => hook.source === 'project';
  const check = (hook: HookDefinition): string | null => {
    if (!appliesTo(hook)) return null;
    refresh();
    return revoked ? REVOKED_ERROR : null;
  };
  return Object.assign(check, { appliesTo });
}
