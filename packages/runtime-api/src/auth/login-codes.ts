import { createHash, randomBytes } from 'node:crypto';

const hash = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

/**
 * One-time login codes (`codewhale serve --open`): a code is exchanged for the session cookie
 * once, within its lifetime, and is then gone. Only the codes' hashes are kept, so nothing in
 * memory can be replayed as a code.
 */
export class LoginCodes {
  readonly #live = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** A new code (43 characters of base64url, 256 random bits). */
  issue(): string {
    const code = randomBytes(32).toString('base64url');
    this.#live.set(hash(code), this.#now() + this.#ttlMs);
    return code;
  }

  /** True once for a code that was issued and has not expired; false for anything else, ever after. */
  take(code: string): boolean {
    const key = hash(code);
    const expires = this.#live.get(key);
    this.#live.delete(key);
    for (const [k, at] of this.#live) if (at <= this.#now()) this.#live.delete(k);
    return expires !== undefined && expires > this.#now();
  }
}
