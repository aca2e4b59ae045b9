import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ToolError } from './tool.js';

function realpathOfNearestExisting(p: string): string {
  let current = p;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(current);
      return tail.length ? resolve(real, ...tail.reverse()) : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) return p;
      tail.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

/**
 * Resolve a tool path inside the workspace. Relative paths are taken from the workspace;
 * symlinks are resolved (for a path that does not exist yet, through its nearest existing
 * ancestor), and anything that lands outside the workspace is refused.
 */
export function resolveInWorkspace(workspace: string, path: string): string {
  if (path.includes('\0')) throw new ToolError('invalid_input', 'path contains a NUL character');
  const root = resolve(workspace);
  const absolute = isAbsolute(path) ? resolve(path) : resolve(workspace, path);
  // The workspace itself (a shell command's usual directory) is resolved once, not twice: each
  // resolution costs a system call per path segment.
  const realRoot = realpathOfNearestExisting(root);
  const real = absolute === root ? realRoot : realpathOfNearestExisting(absolute);
  if (isWithin(realRoot, real)) return real;
  throw new ToolError('path_escape', `path is outside the workspace: ${path}`);
}

/**
 * A file tool's path: inside the workspace ({@link resolveInWorkspace}), or — under session
 * trust — anywhere, symlinks resolved the same way.
 */
export function resolveToolPath(ctx: { readonly workspace: string; readonly outsideWorkspace?: boolean }, path: string): string {
  if (!ctx.outsideWorkspace) return resolveInWorkspace(ctx.workspace, path);
  if (path.includes('\0')) throw new ToolError('invalid_input', 'path contains a NUL character');
  return realpathOfNearestExisting(isAbsolute(path) ? resolve(path) : resolve(ctx.workspace, path));
}

/**
 * True when `path` is `root` or below it. A path-segment test, not a string-prefix one:
 * `..notes.txt` and `...` are names inside the root; only a first segment of exactly `..`
 * (or another drive on Windows) leaves it.
 */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${sep}`);
}

/** The path as shown to the model: relative to the workspace. */
export function displayPath(workspace: string, absolute: string): string {
  return relative(workspace, absolute) || '.';
}
