/**
 * Globs of permission rules. A command glob's `*` matches any run of characters; a path
 * glob's `*` stays within one `/` segment, `**` crosses segments, `?` is one character.
 * Everything else is literal and case-sensitive. Counted in code points.
 */

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** A command glob: `*` = any run; runs of whitespace in both the glob and the command count as one space. */
export function compileCommandGlob(glob: string): RegExp {
  return new RegExp(`^${normalizeCommand(glob).split('*').map(escapeRegExp).join('.*')}$`, 'su');
}

/** Trimmed, with every run of whitespace as one space (so `rm  -rf` is `rm -rf`). */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/gu, ' ');
}

/** A path glob: `**` (with its `/`) any number of segments, `*` within a segment, `?` one character. */
export function compilePathGlob(glob: string): RegExp {
  let body = '';
  const g = Array.from(glob);
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*' && g[i + 1] === '*') {
      i++;
      if (g[i + 1] === '/') {
        i++;
        body += '(?:.*/)?';
      } else {
        body += '.*';
      }
    } else if (c === '*') {
      body += '[^/]*';
    } else if (c === '?') {
      body += '[^/]';
    } else {
      body += escapeRegExp(c);
    }
  }
  return new RegExp(`^${body}$`, 'su');
}

/**
 * A path written in a tool call, lexically normalised: `\` as `/`, no `.` or empty segments,
 * `..` resolved. Relative paths stay relative (a leading `..` is kept when it escapes).
 */
export function normalizePath(path: string): string {
  const p = path.replace(/\\/g, '/');
  const absolute = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (seg === '..' && absolute) continue;
    else out.push(seg);
  }
  return (absolute ? '/' : '') + out.join('/');
}
