import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  appendPermissionRule,
  decodeProjectFile,
  matchPermission,
  parsePermissionRules,
  type FileIssue,
  type NewPermissionRule,
  type PermissionRules,
  type Result,
} from '@codewhale/hooks-config';
import { FileUpdateError, USER_CONFIG_MAX_BYTES, readRegularFile, updateFileLocked } from '@codewhale/hooks-supervisor';
import { EngineError } from '../errors.js';
import type { PermissionCheck } from '../plan-tool-call.js';

/** `permissions.toml` sits beside `config.toml`. */
export function permissionsPathFor(configPath: string): string {
  return join(dirname(configPath), 'permissions.toml');
}

/**
 * Read and parse `permissions.toml` once. A missing file is no rules. Over 1 MiB, not UTF-8,
 * or a TOML syntax error fails the file (a {@link FileIssue} with line and column): callers
 * stop with a `config` error then, because a rule file that cannot be read could hold a
 * `deny` (fail closed). Bad entries do not fail it: they are dropped, each with an issue.
 */
export function loadPermissionRules(path: string): Result<PermissionRules, FileIssue> {
  // Never blocks: a FIFO, socket, device or directory is refused (fail closed), naming the file.
  const read = readRegularFile(path, USER_CONFIG_MAX_BYTES);
  if (!read.ok) {
    if (read.problem === 'missing') return { ok: true, value: { file: path, rules: [], issues: [] } };
    const code = read.problem === 'not_regular' ? 'not_regular_file' : read.problem === 'too_large' ? 'file_too_large' : 'unreadable';
    return { ok: false, issues: [{ code, file: path, line: null, column: null, message: read.message, summary: read.message }] };
  }
  const bytes = read.bytes;
  const text = decodeProjectFile(bytes, path);
  if (!text.ok) return text;
  return parsePermissionRules(text.value.replace(/^\uFEFF/, ''), path);
}

/**
 * The gate-chain step for `planToolCall({ permissions })`: the winning rule's action and
 * where it was written (`/home/me/.codewhale/permissions.toml:7`), or `null`.
 */
export function permissionCheck(rules: PermissionRules): PermissionCheck {
  return (call) => {
    const m = matchPermission(rules.rules, call);
    if (m === null) return null;
    const o = m.rule.origin;
    return { action: m.action, origin: o.line === null ? `${o.file} (rule ${o.entry + 1})` : `${o.file}:${o.line}` };
  };
}

/**
 * Read-modify-write of a small text file: `edit` gets the current text (`''` when missing)
 * and returns the new text, or `null` to leave the file alone. Written to a temporary file
 * beside the target (a symlink is followed), with the target's mode (0600 for a new file,
 * its directory 0700), then renamed over it, so a crash never leaves half a file.
 *
 * Not locked: two writers at the same moment can lose one edit. Prefer the supervisor's
 * `updateFileLocked`, which {@link rememberPermissionRule} uses.
 */
export function updateFileAtomic(path: string, edit: (text: string) => string | null): void {
  let text = '';
  try {
    // Decoded strictly: a file that is not UTF-8 is refused, never rewritten with U+FFFD in it.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(path));
  } catch (e) {
    if (e instanceof TypeError) throw Object.assign(new Error('the file is not valid UTF-8'), { code: 'not UTF-8' });
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const next = edit(text);
  if (next === null || next === text) return;
  let target = path;
  let mode = 0o600;
  if (existsSync(path)) {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o7777;
  } else {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, next, { mode });
    chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** The read-modify-write {@link rememberPermissionRule} uses: locked, so concurrent writers never lose a rule. */
const updateFile = (path: string, edit: (text: string) => string | null): void => {
  updateFileLocked(path, ({ text }) => edit(text));
};

/**
 * Remember a rule (the TUI's "always allow"): append one `[[rules]]` entry to
 * `permissions.toml` through the comment-preserving editor, atomically. Every other byte of
 * the file stays; an identical rule already there leaves the file unchanged. Throws an
 * `EngineError` (`config`) when the file cannot be edited safely or the rule is invalid.
 */
export async function rememberPermissionRule(path: string, rule: NewPermissionRule): Promise<void> {
  let failure: string | null = null;
  try {
    await updateFile(path, (text) => {
      const r = appendPermissionRule(text.replace(/^\uFEFF/, ''), rule);
      if (!r.ok) {
        failure = r.issues[0]!.message;
        return null;
      }
      return text.startsWith('\uFEFF') ? `\uFEFF${r.value}` : r.value;
    });
  } catch (e) {
    if (FileUpdateError.isInstance(e)) throw new EngineError('config', e.message, { cause: e });
    throw new EngineError('config', `cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; it was not changed`, { cause: e });
  }
  if (failure !== null) throw new EngineError('config', `${path} was not changed: ${failure}`, { issues: [{ file: path, line: null, message: failure, fix: 'edit the file by hand' }] });
}
