/** Writing TOML values and keys the way the config editor does: always valid, never ambiguous. */

const ESCAPES: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

/** A TOML basic string: `"…"` with quotes, backslashes and control characters escaped. */
export function formatTomlString(value: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${value.replace(/["\\\u0000-\u001f\u007f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}"`;
}

/** A key: bare when it can be (`trust_level`), otherwise a basic string (`"/a/b"`). */
export function formatTomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : formatTomlString(key);
}

/** The values the config editor writes. */
export type TomlEditValue = string | boolean | Readonly<Record<string, string>>;

/** `"x"`, `true`, or an inline table `{ "a" = "b", … }` (`{}` when empty). */
export function formatTomlValue(value: TomlEditValue): string {
  if (typeof value === 'string') return formatTomlString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const pairs = Object.entries(value).map(([k, v]) => `${formatTomlString(k)} = ${formatTomlString(v)}`);
  return pairs.length ? `{ ${pairs.join(', ')} }` : '{}';
}
