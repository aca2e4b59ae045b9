import { LIMITS } from './limits.js';
import { utf8ByteLength } from './utf8.js';

/** Why a `shell_env` line was dropped. Drops are reported by key name only, never by value. */
export type ShellEnvDropReason = 'empty_name' | 'invalid_name' | 'nul_in_value' | 'value_too_large' | 'output_limit' | 'partial_line';

export interface ShellEnvDrop {
  /** The key name when it is safe to show (a valid name); `null` otherwise. */
  readonly key: string | null;
  readonly reason: ShellEnvDropReason;
  /** 1-based line number in the hook's stdout. */
  readonly line: number;
}

export interface ShellEnvParse {
  /** Accepted pairs in output order; a later line for the same key wins. */
  readonly vars: ReadonlyMap<string, string>;
  readonly dropped: readonly ShellEnvDrop[];
}

// A name is unusable when it is empty, or has whitespace (any Unicode whitespace, D19), `=`,
// a control character, or NUL.
const BAD_NAME = /[\s=\u0000-\u001f\u007f-\u009f]/u;

function unquote(v: string): string {
  if (v.length >= 2) {
    const q = v[0];
    if ((q === '"' || q === "'") && v[v.length - 1] === q) return v.slice(1, -1);
  }
  return v;
}

/**
 * Parse a `shell_env` hook's stdout as `KEY=VALUE` lines: blank and `#` lines are skipped, a
 * leading `export ` is stripped, the line splits at the first `=`, a matching pair of
 * surrounding quotes is removed (no escapes, no expansion). Dropped: bad names, values with
 * NUL, values over 32 KiB, and — once the key+value bytes of accepted entries would exceed
 * 256 KiB — that entry and every later line. When the hook's stdout was cut at its capture
 * limit (`truncated`), the partial last line is dropped rather than parsed.
 */
export function parseShellEnvOutput(stdout: string, truncated = false): ShellEnvParse {
  const vars = new Map<string, string>();
  const dropped: ShellEnvDrop[] = [];
  const lines = stdout.split('\n');
  if (truncated && lines.length > 0) {
    // Only the text after the last newline can be cut; when the cut fell right after a
    // newline there is no partial line to report.
    const partial = lines.pop()!;
    if (partial.trim() !== '') dropped.push({ key: null, reason: 'partial_line', line: lines.length + 1 });
  }
  let total = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    line = line.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('export ')) line = line.slice('export '.length);
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    if (key === '') {
      dropped.push({ key: null, reason: 'empty_name', line: lineNo });
      continue;
    }
    if (BAD_NAME.test(key)) {
      dropped.push({ key: null, reason: 'invalid_name', line: lineNo });
      continue;
    }
    const value = unquote(line.slice(eq + 1).trim());
    if (value.includes('\0')) {
      dropped.push({ key, reason: 'nul_in_value', line: lineNo });
      continue;
    }
    const valueBytes = utf8ByteLength(value);
    if (valueBytes > LIMITS.shellEnvMaxValueBytes) {
      dropped.push({ key, reason: 'value_too_large', line: lineNo });
      continue;
    }
    const size = utf8ByteLength(key) + valueBytes;
    if (total + size > LIMITS.shellEnvMaxOutputBytes) {
      dropped.push({ key, reason: 'output_limit', line: lineNo });
      break;
    }
    total += size;
    vars.delete(key);
    vars.set(key, value);
  }
  return { vars, dropped };
}

/** Merge the pairs of several hooks in config order: later hooks override earlier ones key by key. */
export function mergeShellEnv(parts: readonly ReadonlyMap<string, string>[]): Map<string, string> {
  const merged = new Map<string, string>();
  for (const part of parts) for (const [k, v] of part) merged.set(k, v);
  return merged;
}
