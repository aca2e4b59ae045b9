// An event's variables on top of a frozen parent environment, without copying it (composedEnv),
// and the same as a plain object for whatever serializes it (plainEnv).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composedEnv, plainEnv } from './process-host.js';

/** What the composition must mean: the base, then the variables on top (they win). */
function expected(base: Record<string, string>, vars: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const src of [base, vars]) for (const k of Object.keys(src)) Object.defineProperty(out, k, { value: src[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/** A record from pairs, `__proto__` and names shared with the other record included. */
const names = fc.oneof(fc.constantFrom('PATH', 'HOME', '__proto__', 'constructor', 'toString', 'DEEPSEEK_MODEL', 'A'), fc.string({ minLength: 1, maxLength: 8 }));
const record = fc.array(fc.tuple(names, fc.string({ maxLength: 6 })), { maxLength: 12 }).map((pairs) => {
  const r: Record<string, string> = {};
  for (const [k, v] of pairs) Object.defineProperty(r, k, { value: v, enumerable: true, writable: true, configurable: true });
  return r;
});

/** Every enumerable key a spawn reads (child_process takes inherited ones too), with its value. */
const spawnView = (env: Record<string, string>): [string, string][] => {
  const pairs: [string, string][] = [];
  for (const k in env) pairs.push([k, env[k]!]);
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};
const sorted = (r: Record<string, string>) => Object.keys(r).sort().map((k): [string, string] => [k, r[k]!]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('composedEnv and plainEnv', () => {
  it('a spawn and a serialization both see the base with the variables on top, for any names', () => {
    fc.assert(
      fc.property(record, record, (base, vars) => {
        const frozen = Object.freeze(base);
        const env = Object.freeze(composedEnv(frozen, vars));
        const want = expected(base, vars);
        expect(spawnView(env)).toEqual(sorted(want));
        const plain = plainEnv(env);
        expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
        expect(sorted(plain as Record<string, string>)).toEqual(sorted(want));
        expect(JSON.parse(JSON.stringify(plain))).toEqual(JSON.parse(JSON.stringify(want)));
        // The base is untouched.
        expect(Object.isFrozen(frozen)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('hands a plain environment back as it is', () => {
    const env = { PATH: '/bin' };
    expect(plainEnv(env)).toBe(env);
  });
});
