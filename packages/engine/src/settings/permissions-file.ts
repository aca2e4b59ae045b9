import { basename, dirname, join } from 'node:path';
import { appendPermissionRule, decodeProjectFile, matchPermission, parsePermissionRules, type FileIssue, type NewPermissionRule, type PermissionRules, type Result } from '@codewhale/hooks-config';
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
 * where it was written (`permissions.toml:7`), or `null`. The origin goes into the denial the
 * model reads, so it names the file, never its absolute path (which would tell the model the
 * user's home directory).
 */
export function permissionCheck(rules: PermissionRules): PermissionCheck {
  return (call) => {
    const m = matchPermission(rules.rules, call);
    if (m === null) return null;
    const o = m.rule.origin;
    const file = basename(o.file);
    return { action: m.action, origin: o.line === null ? `${file} (rule ${o.entry + 1})` : `${file}:${o.line}` };
  };
}

/** The read-modify-write {@link rememberPermissionRule} uses: locked, so concurrent writers never lose a rule. */
const updateFile = (path: string, edit: (text: string) => string | null): void => {
  updateFileLocked(path, ({ text }) => edit(text));
};

/**
 * Remember a rule (the "always" answer to an approval): append one `[[rules]]` entry to
 * `permissions.toml` through the comment-preserving editor, atomically and under the file's
 * lock. Every other byte of the file stays; an identical rule already there leaves the file
 * unchanged. Synchronous, so nothing else in this process runs between the read and the
 * write. Throws an `EngineError` (`config`) when the file cannot be edited safely or the rule
 * is invalid; the file is then unchanged.
 */
export function writePermissionRule(path: string, rule: NewPermissionRule): void {
  let failure: string | null = null;
  try {
    updateFile(path, (text) => {
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

/** Append one `allow`/`ask`/`deny` rule to `permissions.toml` (locked, comment-preserving, atomic); the promise form of the engine's synchronous writer. Throws an `EngineError` (`config`) when the file cannot be edited safely; it is then unchanged. */
export async function rememberPermissionRule(path: string, rule: NewPermissionRule): Promise<void> {
  writePermissionRule(path, rule);
}
