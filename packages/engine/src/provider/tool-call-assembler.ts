/**
 * Chat Completions streams a tool call as fragments in `choices[0].delta.tool_calls[]`:
 * `{index, id?, type?, function: {name?, arguments?}}`. This assembles them.
 */
import type { ModelToolCall } from './types.js';

interface Slot {
  readonly index: number;
  id: string;
  name: string;
  args: string;
}

/** Options of {@link ToolCallAssembler}. */
export interface ToolCallAssemblerOptions {
  /** Prefix of synthesized ids for calls the server sent without one: `${prefix}${index}`. Default `call_`. */
  readonly syntheticIdPrefix?: string;
}

/**
 * Collects tool-call fragments, in any interleaving, keyed by their `index`, and returns the
 * complete calls in index order.
 *
 * - `id` and `name`: the first non-empty value wins (some servers repeat them on every fragment).
 * - `function.arguments`: concatenated in arrival order, exactly as sent.
 * - A call without an id gets `call_<index>` (deterministic, so a replayed transcript matches).
 * - A call whose arguments stayed empty gets `{}` (a no-argument call; `""` is not JSON).
 * - A fragment without `index` continues the most recent call, unless it starts a new one
 *   (it carries an id or name different from that call's), which then takes the next index.
 * - A call that never got a name nor arguments (an empty trailing fragment) is dropped.
 *
 * Malformed fragments (not objects, wrong field types) are ignored; it never throws.
 */
export class ToolCallAssembler {
  readonly #slots = new Map<number, Slot>();
  readonly #prefix: string;
  #last: Slot | null = null;

  constructor(options: ToolCallAssemblerOptions = {}) {
    this.#prefix = options.syntheticIdPrefix ?? 'call_';
  }

  /** Whether any fragment was received. */
  get isEmpty(): boolean {
    return this.#slots.size === 0;
  }

  /** Add the `delta.tool_calls` array of one chunk (or anything else, which is ignored). */
  pushAll(fragments: unknown): void {
    if (!Array.isArray(fragments)) return;
    for (const fragment of fragments) this.push(fragment);
  }

  /** Add one `delta.tool_calls[i]` fragment. */
  push(fragment: unknown): void {
    if (fragment === null || typeof fragment !== 'object') return;
    const f = fragment as Record<string, unknown>;
    const fn = f['function'] !== null && typeof f['function'] === 'object' ? (f['function'] as Record<string, unknown>) : {};
    const id = nonEmptyString(f['id']);
    const name = nonEmptyString(fn['name']);
    const args = typeof fn['arguments'] === 'string' ? fn['arguments'] : '';

    const slot = this.#slotFor(f['index'], id, name);
    if (slot.id === '' && id !== null) slot.id = id;
    if (slot.name === '' && name !== null) slot.name = name;
    slot.args += args;
    this.#last = slot;
  }

  /** The complete calls, in index order. Does not reset the assembler. */
  finish(): ModelToolCall[] {
    return [...this.#slots.values()]
      .filter((s) => s.name !== '' || s.args !== '')
      .sort((a, b) => a.index - b.index)
      .map((s) => ({
        id: s.id !== '' ? s.id : `${this.#prefix}${s.index}`,
        name: s.name,
        arguments: s.args.trim() === '' ? '{}' : s.args,
      }));
  }

  #slotFor(rawIndex: unknown, id: string | null, name: string | null): Slot {
    let index: number;
    if (typeof rawIndex === 'number' && Number.isSafeInteger(rawIndex) && rawIndex >= 0) {
      index = rawIndex;
    } else {
      const last = this.#last;
      const startsNew = last === null || (id !== null && last.id !== '' && id !== last.id) || (name !== null && last.name !== '' && name !== last.name);
      if (!startsNew) return last;
      index = this.#slots.size === 0 ? 0 : Math.max(...this.#slots.keys()) + 1;
    }
    let slot = this.#slots.get(index);
    if (slot === undefined) {
      slot = { index, id: '', name: '', args: '' };
      this.#slots.set(index, slot);
    }
    return slot;
  }
}

function nonEmptyString(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}
