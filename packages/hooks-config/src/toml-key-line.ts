import type { TomlLayout } from './toml-layout.js';

const sameKey = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * The 1-based line that sets `key` in the table at `table` (also when written as a dotted key,
 * `retry.max_retries = 3`, or as a sub-table header, `[providers.openai]`), else the line of
 * the table's own header, else `null`. `table = []` is the root. For problem lines only: the
 * first match wins when a key is written twice (which TOML itself rejects).
 */
export function tomlKeyLine(layout: TomlLayout, table: readonly string[], key: string): number | null {
  for (const e of layout.entries) {
    const header = e.table >= 0 ? layout.headers[e.table]!.path : [];
    const full = [...header, ...e.key];
    if (full.length > table.length && sameKey(full.slice(0, table.length), table) && full[table.length] === key) return e.line;
  }
  const sub = layout.headers.find((h) => h.path.length > table.length && sameKey(h.path.slice(0, table.length), table) && h.path[table.length] === key);
  if (sub !== undefined) return sub.line;
  return layout.headers.find((h) => sameKey(h.path, table))?.line ?? null;
}

/**
 * The header line of each `[[path]]` entry, in order — when they account for all `count`
 * entries; otherwise (an inline array, `rules = [{…}]`) `null` for each.
 */
export function tomlArrayEntryLines(layout: TomlLayout, path: readonly string[], count: number): (number | null)[] {
  const lines = layout.headers.filter((h) => h.kind === 'array' && sameKey(h.path, path)).map((h) => h.line);
  return lines.length === count ? lines : new Array<number | null>(count).fill(null);
}
