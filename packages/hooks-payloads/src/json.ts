/** A JSON value as hook documents carry it; `bigint` is written as a plain integer. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue | undefined };

/**
 * Compact JSON with the key order of the object as built (key order is part of the hook
 * contract), byte-identical to `JSON.stringify` for ordinary values, and able to write a
 * signed 64-bit exit code held in a `bigint`. `undefined` members are skipped.
 */
export function toJson(value: JsonValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
    case 'string':
      return JSON.stringify(value);
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map((v) => toJson(v)).join(',')}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(k)}:${toJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/** Parse a JSON text, returning `undefined` instead of throwing when it is not JSON. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
