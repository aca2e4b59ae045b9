import type { TomlTable } from './parse-toml.js';
import { isTable } from './schema.js';

/**
 * The keys Codewhale owns under `[projects."<canonical workspace path>"]` in the user's
 * config.toml (D12). Nothing in a repository can set them.
 * - `trust_level = "trusted"`: the workspace is trusted (compared case-insensitively, trimmed);
 * - `hooks_approved_sha256 = "<64 hex>"`: SHA-256 of the exact `hooks.toml` bytes approved;
 * - `hooks_approved_scripts = { "<workspace-relative path>" = "<64 hex>" | "absent" }`: the
 *   scripts the approved commands name, pinned at approval (D13);
 * - `hooks_revoked = true`: project hooks were revoked; only a new approval clears it.
 */
export const PROJECT_KEYS = {
  trustLevel: 'trust_level',
  approvedSha256: 'hooks_approved_sha256',
  approvedScripts: 'hooks_approved_scripts',
  revoked: 'hooks_revoked',
} as const;

/** Every key under `[projects."…"]` the editor may change. */
export const OWNED_PROJECT_KEYS: readonly string[] = Object.values(PROJECT_KEYS);

/** The pin recorded for a script that did not exist when the hooks were approved. */
export const ABSENT_SCRIPT = 'absent';

const HEX64 = /^[0-9a-f]{64}$/;

/** A lowercase 64-hex SHA-256, or `null`. */
export function normalizeSha256(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const hex = value.trim().toLowerCase();
  return HEX64.test(hex) ? hex : null;
}

/** What the user's config records about one workspace. */
export interface ProjectRecord {
  readonly trusted: boolean;
  readonly approvedSha256: string | null;
  /** Pinned scripts: workspace-relative path → lowercase SHA-256 hex, or `absent`. */
  readonly approvedScripts: ReadonlyMap<string, string>;
  /** `hooks_revoked` is set to anything but `false` (a malformed marker counts: fail closed). */
  readonly revoked: boolean;
  /** An approval key is present but not well-formed; an approval then never counts. */
  readonly malformed: boolean;
}

/** The record for `workspace` (already canonicalised by the caller; compared exactly). */
export function readProjectRecord(doc: TomlTable, workspace: string): ProjectRecord {
  const projects = doc['projects'];
  const table = isTable(projects) && Object.hasOwn(projects, workspace) && isTable(projects[workspace]) ? projects[workspace] : {};
  const level = table[PROJECT_KEYS.trustLevel];
  const trusted = typeof level === 'string' && level.trim().toLowerCase() === 'trusted';

  let malformed = false;
  const rawSha = table[PROJECT_KEYS.approvedSha256];
  const approvedSha256 = normalizeSha256(rawSha);
  if (rawSha !== undefined && approvedSha256 === null) malformed = true;

  const scripts = new Map<string, string>();
  const rawScripts = table[PROJECT_KEYS.approvedScripts];
  if (rawScripts !== undefined) {
    if (!isTable(rawScripts)) malformed = true;
    else {
      for (const [path, pin] of Object.entries(rawScripts)) {
        const sha = typeof pin === 'string' && pin.trim().toLowerCase() === ABSENT_SCRIPT ? ABSENT_SCRIPT : normalizeSha256(pin);
        if (sha === null) malformed = true;
        else scripts.set(path, sha);
      }
    }
  }
  const rawRevoked = table[PROJECT_KEYS.revoked];
  return { trusted, approvedSha256, approvedScripts: scripts, revoked: rawRevoked !== undefined && rawRevoked !== false, malformed };
}
