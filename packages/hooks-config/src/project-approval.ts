import { decodeProjectFile } from './decode-project-file.js';
import { parseToml } from './parse-toml.js';
import { ABSENT_SCRIPT, type ProjectRecord } from './project-record.js';
import { isTable } from './schema.js';
import { scriptPathsInCommands } from './script-paths.js';
import type { Sha256 } from './types.js';

/**
 * Where a workspace's project hooks stand:
 * - `none`: there is no project hooks file;
 * - `pending`: there is one, and it was never approved;
 * - `approved`: the file's digest and every pinned script match the approval;
 * - `changed`: approved once, but the file or a pinned script differs now (or the record is malformed);
 * - `revoked`: the user revoked project hooks; only a new approval clears it.
 */
export type ProjectApprovalState = 'approved' | 'pending' | 'changed' | 'revoked' | 'none';

export interface ProjectApproval {
  readonly state: ProjectApprovalState;
  /** `[projects."<path>"] trust_level = "trusted"` in the user's config. */
  readonly trusted: boolean;
  /** SHA-256 of the file's bytes as they are now, or `null` with no file. */
  readonly digest: string | null;
  readonly approvedDigest: string | null;
  /** Workspace-relative script paths the file's commands name now (D13). */
  readonly scripts: readonly string[];
  /** Named or pinned scripts that differ from their pin (changed, appeared, vanished, or never pinned). */
  readonly changedScripts: readonly string[];
  /** Project hooks load only when the workspace is trusted and the exact file is approved. */
  readonly loadable: boolean;
}

export interface ProjectApprovalInput {
  /** From `readProjectRecord(userConfig.document, canonicalWorkspace)`. */
  readonly record: ProjectRecord;
  /** The exact bytes of `hooks.toml`, or `null` when there is no file. */
  readonly projectFile: Uint8Array | null;
  readonly sha256: Sha256;
  /**
   * The current SHA-256 of each path in {@link scriptPathsToCheck} (`null`: missing or not a
   * regular file inside the workspace). A path left out counts as missing.
   */
  readonly scriptDigests?: ReadonlyMap<string, string | null>;
}

/** The script paths a project file's commands name; `[]` when the file cannot be parsed. */
export function projectScriptPaths(projectFile: Uint8Array): string[] {
  const text = decodeProjectFile(projectFile, 'hooks.toml');
  if (!text.ok) return [];
  const doc = parseToml(text.value, 'hooks.toml');
  if (!doc.ok || !Array.isArray(doc.value['hooks'])) return [];
  const commands = doc.value['hooks'].flatMap((e) => (isTable(e) && typeof e['command'] === 'string' ? [e['command']] : []));
  return scriptPathsInCommands(commands);
}

/** Every path the caller must hash for {@link projectApproval}: the ones named now plus the ones pinned. */
export function scriptPathsToCheck(record: ProjectRecord, projectFile: Uint8Array | null): string[] {
  const named = projectFile ? projectScriptPaths(projectFile) : [];
  return [...new Set([...named, ...record.approvedScripts.keys()])].sort();
}

/** The approval verdict (D11–D14). Pure: bytes, the user's record and script digests in; state out. */
export function projectApproval(input: ProjectApprovalInput): ProjectApproval {
  const { record, projectFile } = input;
  const base = { trusted: record.trusted, approvedDigest: record.approvedSha256 };
  if (projectFile === null) return { ...base, state: 'none', digest: null, scripts: [], changedScripts: [], loadable: false };
  const digest = input.sha256(projectFile).toLowerCase();
  const scripts = projectScriptPaths(projectFile);
  const verdict = (state: ProjectApprovalState, changedScripts: readonly string[] = []): ProjectApproval => ({
    ...base,
    state,
    digest,
    scripts,
    changedScripts,
    loadable: state === 'approved' && record.trusted,
  });
  if (record.revoked) return verdict('revoked');
  if (record.approvedSha256 === null && !record.malformed) return verdict('pending');
  if (record.malformed || record.approvedSha256 !== digest) return verdict('changed');
  const changed: string[] = [];
  for (const path of new Set([...scripts, ...record.approvedScripts.keys()])) {
    const pin = record.approvedScripts.get(path);
    const now = input.scriptDigests?.get(path)?.toLowerCase() ?? null;
    if (pin === undefined || pin !== (now ?? ABSENT_SCRIPT)) changed.push(path);
  }
  return changed.length ? verdict('changed', changed.sort()) : verdict('approved');
}
