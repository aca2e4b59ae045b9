/**
 * Compile a `tool_name` pattern: `*` matches any run of characters; every other character,
 * regex metacharacters included, is literal. Anchored and case-sensitive: `read_file` does not
 * match `read_files`, `mcp.git*` does not match `mcpXgithub`.
 */
export function compileToolNameGlob(pattern: string): RegExp {
  const body = pattern
    .split('*')
    // Only syntax characters and `/` may be escaped under the `u` flag (`\-` is a SyntaxError).
    .map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'su');
}

const cache = new Map<string, RegExp>();

/** True when `toolName` matches the glob `pattern` (compiled patterns are cached). */
export function matchToolNameGlob(pattern: string, toolName: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = compileToolNameGlob(pattern);
    if (cache.size > 4096) cache.clear();
    cache.set(pattern, re);
  }
  return re.test(toolName);
}
