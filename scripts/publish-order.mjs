// The order `pnpm release` publishes in: every dependency before its dependents, so a failed
// publish never leaves a package on the registry whose dependency is missing there.

/**
 * @param {{ name: string, dependencies?: Record<string,string>, peerDependencies?: Record<string,string>, optionalDependencies?: Record<string,string> }[]} manifests
 * @returns {string[]} names, dependencies first; ties in name order. Throws on a cycle.
 */
export function publishOrder(manifests) {
  const names = new Set(manifests.map((m) => m.name));
  const deps = new Map(
    manifests.map((m) => [
      m.name,
      [...new Set([...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {}), ...Object.keys(m.optionalDependencies ?? {})])].filter((d) => names.has(d) && d !== m.name),
    ]),
  );
  const done = new Set();
  const order = [];
  while (order.length < names.size) {
    const ready = [...names].filter((n) => !done.has(n) && deps.get(n).every((d) => done.has(d))).sort();
    if (ready.length === 0) {
      const left = [...names].filter((n) => !done.has(n)).sort();
      throw new Error(`dependency cycle among ${left.join(', ')}`);
    }
    for (const n of ready) {
      done.add(n);
      order.push(n);
    }
  }
  return order;
}
