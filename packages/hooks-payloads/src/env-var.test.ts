import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setEnvVar } from './env-var.js';

describe('setEnvVar', () => {
  it('sets any name as an own enumerable variable and never touches the prototype', () => {
    const name = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'PATH'), fc.string({ minLength: 1 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string())), (pairs) => {
        const env: Record<string, string> = {};
        const model = new Map<string, string>();
        for (const [k, v] of pairs) {
          setEnvVar(env, k, v);
          model.set(k, v);
        }
        expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
        expect(new Map(Object.entries(env))).toEqual(model);
      }),
    );
  });
});
