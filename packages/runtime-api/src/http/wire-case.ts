/**
 * The wire is snake_case. Two values come from the engine in its own (camelCase) shapes: a
 * turn's `usage` and a tool call's decision record. They are translated here, once, when a row
 * becomes JSON — so rows stored before the translation existed read the same way.
 */

const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Keys whose values are tool inputs (the model's or a hook's): their own keys are data, kept as they are. */
const OPAQUE = new Set(['updated_input']);

/** `value` with every object key in snake_case, recursively, except inside tool inputs. Idempotent. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = snake(k);
    out[key] = OPAQUE.has(key) ? v : snakeKeys(v);
  }
  return out;
}
