/**
 * A compiled `tool_name` pattern. `test` runs in time linear in the pattern plus the name
 * (never a backtracking regular expression: `*a*a*a…*b` costs the same as `mcp__*`).
 */
export interface ToolNameGlob {
  readonly pattern: string;
  /** True when `toolName` matches the whole pattern. */
  test(toolName: string): boolean;
  /**
   * Like `test`, also returning the number of elementary comparison steps it took. The
   * steps are at most `2 × (code points of the name) + 2 × (code points of the pattern)`.
   */
  testCounted(toolName: string): { readonly matched: boolean; readonly steps: number };
}

/** A literal run of the pattern between stars, as code points, with its KMP failure table. */
interface Segment {
  readonly cps: readonly number[];
  readonly fail: readonly number[];
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

function segment(text: string): Segment {
  const cps = codePoints(text);
  const fail = new Array<number>(cps.length).fill(0);
  for (let i = 1, k = 0; i < cps.length; i++) {
    while (k > 0 && cps[i] !== cps[k]) k = fail[k - 1]!;
    if (cps[i] === cps[k]) k++;
    fail[i] = k;
  }
  return { cps, fail };
}

/**
 * Compile a `tool_name` pattern: `*` matches any run of characters (code points, newlines
 * included); every other character, regex metacharacters included, is literal. Anchored and
 * case-sensitive: `read_file` does not match `read_files`, `mcp.git*` does not match
 * `mcpXgithub`.
 *
 * With stars only, the leftmost match of each literal run between stars is always a safe
 * choice, so one left-to-right scan decides: the first run must be a prefix, the last a
 * suffix, and each middle run is found (Knuth–Morris–Pratt) after the previous one. Each
 * search resumes where the last one ended, so every code point of the name is scanned a
 * bounded number of times.
 */
export function compileToolNameGlob(pattern: string): ToolNameGlob {
  const parts = pattern.split('*');
  const segments = parts.map(segment);
  const hasStar = parts.length > 1;
  const head = segments[0]!;
  const tail = segments[segments.length - 1]!;
  const middle = segments.slice(1, -1).filter((s) => s.cps.length > 0);

  const testCounted = (toolName: string): { matched: boolean; steps: number } => {
    const name = codePoints(toolName);
    let steps = 0;
    if (!hasStar) {
      if (name.length !== head.cps.length) return { matched: false, steps };
      for (let i = 0; i < name.length; i++) {
        steps++;
        if (name[i] !== head.cps[i]) return { matched: false, steps };
      }
      return { matched: true, steps };
    }
    if (name.length < head.cps.length + tail.cps.length) return { matched: false, steps };
    for (let i = 0; i < head.cps.length; i++) {
      steps++;
      if (name[i] !== head.cps[i]) return { matched: false, steps };
    }
    const end = name.length - tail.cps.length;
    for (let i = 0; i < tail.cps.length; i++) {
      steps++;
      if (name[end + i] !== tail.cps[i]) return { matched: false, steps };
    }
    // Middle runs must fit, in order and without overlap, in name[head .. end).
    let pos = head.cps.length;
    for (const seg of middle) {
      const { cps, fail } = seg;
      let k = 0;
      let found = -1;
      while (pos < end) {
        steps++;
        if (name[pos] === cps[k]) {
          pos++;
          k++;
          if (k === cps.length) {
            found = pos;
            break;
          }
        } else if (k > 0) {
          k = fail[k - 1]!;
        } else {
          pos++;
        }
      }
      if (found < 0) return { matched: false, steps };
    }
    return { matched: true, steps };
  };

  return { pattern, test: (toolName) => testCounted(toolName).matched, testCounted };
}

const cache = new Map<string, ToolNameGlob>();

/** True when `toolName` matches the glob `pattern` (compiled patterns are cached). */
export function matchToolNameGlob(pattern: string, toolName: string): boolean {
  let glob = cache.get(pattern);
  if (!glob) {
    glob = compileToolNameGlob(pattern);
    if (cache.size > 4096) cache.clear();
    cache.set(pattern, glob);
  }
  return glob.test(toolName);
}
