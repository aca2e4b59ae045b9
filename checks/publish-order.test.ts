import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { publishOrder } from '../scripts/publish-order.mjs';

type Manifest = { name: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
const order = publishOrder as (m: Manifest[]) => string[];

/** Random DAGs: package i may depend only on packages j < i (then shuffled). */
const dag = fc.integer({ min: 1, max: 9 }).chain((n) =>
  fc
    .tuple(fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }), fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }))
    .map(([edges, perm]) =>
      perm.map((i) => {
        const deps = Object.fromEntries(edges[i]!.flatMap((on, j) => (on && j < i ? [[`@codewhale/p${j}`, 'workspace:*']] : [])));
        return { name: `@codewhale/p${i}`, dependencies: deps, peerDependencies: i % 3 === 0 ? { zod: '^4' } : {} };
      }),
    ),
);

describe('publishOrder', () => {
  it('lists every package once, each after all of its workspace dependencies', () => {
    fc.assert(
      fc.property(dag, (manifests) => {
        const got = order(manifests);
        expect([...got].sort()).toEqual(manifests.map((m) => m.name).sort());
        for (const m of manifests) for (const d of Object.keys(m.dependencies ?? {})) expect(got.indexOf(d)).toBeLessThan(got.indexOf(m.name));
      }),
    );
  });

  it('orders the real layering and refuses a cycle', () => {
    expect(
      order([
        { name: '@codewhale/cli', dependencies: { '@codewhale/engine': '*', '@codewhale/hooks-payloads': '*' } },
        { name: '@codewhale/engine', dependencies: { '@codewhale/hooks-payloads': '*' } },
        { name: '@codewhale/hooks-payloads' },
      ]),
    ).toEqual(['@codewhale/hooks-payloads', '@codewhale/engine', '@codewhale/cli']);
    expect(() =>
      order([
        { name: 'a', dependencies: { b: '1' } },
        { name: 'b', dependencies: { a: '1' } },
      ]),
    ).toThrow('dependency cycle among a, b');
  });
});
