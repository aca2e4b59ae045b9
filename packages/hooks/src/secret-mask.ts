/**
 * Exact-value masking of the values `shell_env` hooks produced, as CI systems mask a value
 * known to be secret: every occurrence in a tool's output is replaced before the output goes
 * to the model, to the session's history or to any surface. Values shorter than
 * {@link MASK_MIN_CHARS} are not masked (they cannot be told apart from ordinary output).
 */
export const MASK_MIN_CHARS = 4;
export const MASK = '***';

export class SecretMask {
  /** Longest first, so a value that contains another is masked whole. */
  #values: string[] = [];

  /** Remember values to mask from now on (duplicates and short values are ignored). */
  add(values: Iterable<string>): void {
    let changed = false;
    for (const v of values) {
      if (v.length < MASK_MIN_CHARS || this.#values.includes(v)) continue;
      this.#values.push(v);
      changed = true;
    }
    if (changed) this.#values.sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.#values.length;
  }

  /** `text` with every remembered value replaced by {@link MASK}. */
  mask(text: string): string {
    let out = text;
    for (const v of this.#values) if (out.includes(v)) out = out.split(v).join(MASK);
    return out;
  }
}
