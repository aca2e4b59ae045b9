import { isJsonObject } from './json.js';
import { isShellToolName } from './shell-tools.js';

/**
 * Tool inputs in the peer's field names and back. The peer's file tools take an absolute
 * `file_path` where ours take a workspace-relative `path`; its `Edit` takes one
 * `old_string`/`new_string` pair where our `edit` takes `edits`; its `Bash` timeout is in
 * milliseconds where ours is in seconds; its `Grep` spells `ignore_case` as `-i`. Every other
 * field keeps its name, so a rewrite that adds a field we do not have is still caught by the
 * tool's own input validation. Pure string work: no file system, no `node:path`.
 */

/** Is `p` an absolute path (POSIX `/…`, Windows `C:\…`, `C:/…` or `\\server\…`)? */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

function separatorOf(base: string): '/' | '\\' {
  return !base.includes('/') && base.includes('\\') ? '\\' : '/';
}

/** `base` joined with a relative `rel`, `.` and `..` segments resolved lexically (never above `base`'s root). */
export function joinPath(base: string, rel: string): string {
  if (isAbsolutePath(rel)) return rel;
  const sep = separatorOf(base);
  const root = base.startsWith('/') ? '/' : /^[A-Za-z]:[\\/]/.test(base) ? base.slice(0, 3) : '';
  const segments = base
    .slice(root.length)
    .split(/[\\/]/)
    .filter((s) => s !== '' && s !== '.');
  for (const s of rel.split(/[\\/]/)) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(s);
  }
  const joined = root + segments.join(sep);
  return joined === '' ? '.' : joined;
}

/** `abs` relative to `base` when it is `base` itself or inside it, else `null`. Lexical. */
export function relativeInside(base: string, abs: string): string | null {
  const b = joinPath(base, '.');
  const a = joinPath(abs, '.');
  if (a === b) return '.';
  const sep = separatorOf(b);
  const prefix = b.endsWith(sep) ? b : `${b}${sep}`;
  return a.startsWith(prefix) ? a.slice(prefix.length) : null;
}

/** Tools whose `path` the peer calls `file_path`. */
const FILE_PATH_TOOLS = new Set(['read', 'write', 'edit']);
/** Tools whose `path` keeps its name but is made absolute. */
const DIR_PATH_TOOLS = new Set(['list_dir', 'grep']);

/** Fields the peer's Bash takes that our shell tool does not: dropped on the way back. */
const PEER_ONLY_BASH_FIELDS = new Set(['description', 'run_in_background']);

/**
 * Our tool input as the peer's tool of the same name takes it. A value that is not an object
 * is passed through as it is. Paths are made absolute against `workspace`.
 */
export function toPeerToolInput(tool: string, input: unknown, workspace: string): unknown {
  if (!isJsonObject(input)) return input;
  const out: Record<string, unknown> = {};
  const pathKey = FILE_PATH_TOOLS.has(tool) ? 'file_path' : DIR_PATH_TOOLS.has(tool) ? 'path' : null;
  for (const [key, value] of Object.entries(input)) {
    if (key === 'path' && pathKey !== null && typeof value === 'string') out[pathKey] = joinPath(workspace, value);
    else if (key === 'edits' && tool === 'edit' && Array.isArray(value)) {
      const edits = value.map((e) => (isJsonObject(e) ? renameKeys(e, EDIT_TO_PEER) : e));
      // One edit is the peer's Edit: its fields at the top level. Several keep the list.
      if (edits.length === 1 && isJsonObject(edits[0])) Object.assign(out, edits[0]);
      else out['edits'] = edits;
    } else if (key === 'timeout' && isShellToolName(tool) && typeof value === 'number') out['timeout'] = value * 1000;
    else if (key === 'ignore_case' && tool === 'grep') out['-i'] = value;
    else out[key] = value;
  }
  return out;
}

const EDIT_TO_PEER: Readonly<Record<string, string>> = { old_text: 'old_string', new_text: 'new_string' };
const EDIT_FROM_PEER: Readonly<Record<string, string>> = { old_string: 'old_text', new_string: 'new_text' };

function renameKeys(o: Record<string, unknown>, names: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[Object.hasOwn(names, k) ? names[k]! : k] = v;
  return out;
}

/**
 * A peer `updatedInput` in our field names, for `tool` (our name). Where a value equals what
 * {@link toPeerToolInput} made of the original input, the original value is restored exactly
 * (an unchanged absolute path goes back to the relative one the model wrote). A changed path
 * inside the workspace becomes workspace-relative; one outside it stays absolute, for the
 * tool's own path rules to judge. The result still goes through the tool's input validation.
 */
export function fromPeerToolInput(tool: string, updated: Record<string, unknown>, original: unknown, workspace: string): Record<string, unknown> {
  const before = isJsonObject(original) ? original : {};
  const forward = toPeerToolInput(tool, before, workspace) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const pathKey = FILE_PATH_TOOLS.has(tool) ? 'file_path' : DIR_PATH_TOOLS.has(tool) ? 'path' : null;
  const singleEdit: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(updated)) {
    if (pathKey !== null && key === pathKey && typeof value === 'string') {
      if (value === forward[pathKey] && typeof before['path'] === 'string') out['path'] = before['path'];
      else out['path'] = isAbsolutePath(value) ? (relativeInside(workspace, value) ?? value) : value;
    } else if (tool === 'edit' && (key === 'old_string' || key === 'new_string' || key === 'replace_all')) {
      singleEdit[EDIT_FROM_PEER[key] ?? key] = value;
    } else if (tool === 'edit' && key === 'edits' && Array.isArray(value)) {
      out['edits'] = value.map((e) => (isJsonObject(e) ? renameKeys(e, EDIT_FROM_PEER) : e));
    } else if (isShellToolName(tool) && key === 'timeout' && typeof value === 'number') {
      out['timeout'] = value === forward['timeout'] && before['timeout'] !== undefined ? before['timeout'] : Math.max(1, Math.ceil(value / 1000));
    } else if (isShellToolName(tool) && PEER_ONLY_BASH_FIELDS.has(key)) {
    } else if (tool === 'grep' && key === '-i') out['ignore_case'] = value;
    else out[key] = value;
  }
  if (Object.keys(singleEdit).length > 0 && out['edits'] === undefined) out['edits'] = [singleEdit];
  return out;
}
