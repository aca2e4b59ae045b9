import { basename } from 'node:path';
import { sanitizeLine } from '@codewhale/hooks-payloads';
import type { Io } from './io.js';

/** `1 hook`, `2 hooks`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Print a JSON document (pretty, one trailing newline). */
export function printJson(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, jsonReplacer, 2)}\n`);
}

/** Print one JSON Lines record. */
export function printJsonLine(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, jsonReplacer)}\n`);
}

/** `bigint` (exit codes, TOML integers) as a number when safe, else a decimal string. */
function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  return value;
}

/** A single safe display line: control characters removed, bounded in code points. */
export function line(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  return sanitizeLine(text, maxChars).text;
}

/** Where a hook was written, for people: `config.toml:12`, `hooks.toml:3`. */
export function origin(o: { readonly file: string; readonly line: number | null }): string {
  const name = line(basename(o.file), 80);
  return o.line === null ? name : `${name}:${o.line}`;
}

/** Compact JSON for a one-line preview, bounded. */
export function jsonPreview(value: unknown, maxChars = 200): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value, jsonReplacer) ?? 'null');
  } catch {
    text = '(unprintable)';
  }
  return line(text, maxChars);
}
