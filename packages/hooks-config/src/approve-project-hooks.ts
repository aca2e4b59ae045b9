import { editProjectTable, type ConfigEditError, type ConfigEditErrorCode } from './edit-project-table.js';
import { matchDigest, type DigestMatchErrorCode } from './match-digest.js';
import { projectScriptPaths } from './project-approval.js';
import { ABSENT_SCRIPT, PROJECT_KEYS } from './project-record.js';
import { fail, ok, type Result } from './result.js';
import type { Sha256 } from './types.js';

export type ApproveErrorCode = 'no_project_file' | DigestMatchErrorCode | ConfigEditErrorCode;

export interface ApproveError {
  readonly code: ApproveErrorCode;
  readonly message: string;
}

export interface ApproveInput {
  /** The user's config.toml text, as read. */
  readonly configText: string;
  /** The canonical workspace path (the caller canonicalises, symlinks resolved). */
  readonly workspace: string;
  /** The exact bytes of `hooks.toml` as they are now, or `null` when there is none. */
  readonly projectFile: Uint8Array | null;
  readonly sha256: Sha256;
  /** What the user typed: the full digest or a unique prefix of at least 12 hex characters. */
  readonly digest: string;
  /** Current SHA-256 of each script `projectScriptPaths(projectFile)` names; `null` or left out: absent. */
  readonly scriptDigests?: ReadonlyMap<string, string | null>;
}

export interface ApprovedProjectHooks {
  /** The new config.toml text, to be written back by the caller. */
  readonly configText: string;
  /** The full digest now approved. */
  readonly digest: string;
  /** The script pins recorded: path → SHA-256 hex, or `absent`. */
  readonly scripts: Readonly<Record<string, string>>;
}

/**
 * `hooks approve <digest>` (D11–D13): check the typed digest against the file as it is now
 * (full, or a unique prefix of at least 12 hex characters, case-insensitive), then record
 * `hooks_approved_sha256`, pin the scripts the commands name in `hooks_approved_scripts`
 * (a script that does not exist is pinned as `absent`), and clear `hooks_revoked`. Takes
 * effect on the next session load. Does not grant trust.
 */
export function approveProjectHooks(input: ApproveInput): Result<ApprovedProjectHooks, ApproveError> {
  if (input.projectFile === null) return fail({ code: 'no_project_file', message: 'there is no project hooks file to approve' });
  const current = input.sha256(input.projectFile).toLowerCase();
  const matched = matchDigest(input.digest, [current]);
  if (!matched.ok) return matched;
  const scripts: Record<string, string> = {};
  for (const path of projectScriptPaths(input.projectFile)) scripts[path] = input.scriptDigests?.get(path)?.toLowerCase() ?? ABSENT_SCRIPT;
  const hasScripts = Object.keys(scripts).length > 0;
  const edited = editProjectTable(input.configText, input.workspace, {
    set: { [PROJECT_KEYS.approvedSha256]: matched.value, ...(hasScripts ? { [PROJECT_KEYS.approvedScripts]: scripts } : {}) },
    remove: [PROJECT_KEYS.revoked, ...(hasScripts ? [] : [PROJECT_KEYS.approvedScripts])],
  });
  if (!edited.ok) return edited;
  return ok({ configText: edited.value, digest: matched.value, scripts });
}

/**
 * `hooks revoke`: remove the approval and its pins and set `hooks_revoked = true`, which
 * blocks future and queued launches (checked at spawn and dequeue, D14) until a new approval.
 */
export function revokeProjectHooks(configText: string, workspace: string): Result<string, ConfigEditError> {
  return editProjectTable(configText, workspace, {
    set: { [PROJECT_KEYS.revoked]: true },
    remove: [PROJECT_KEYS.approvedSha256, PROJECT_KEYS.approvedScripts],
  });
}

/**
 * Record the user's answer to the trust prompt: `trust_level = "trusted"`, or remove it.
 * Only ever called on an explicit user action; trust alone never enables project hooks.
 */
export function setWorkspaceTrust(configText: string, workspace: string, trusted: boolean): Result<string, ConfigEditError> {
  return trusted ? editProjectTable(configText, workspace, { set: { [PROJECT_KEYS.trustLevel]: 'trusted' } }) : editProjectTable(configText, workspace, { remove: [PROJECT_KEYS.trustLevel] });
}
