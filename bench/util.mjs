// Small timing helpers shared by the benchmarks.
export function time(fn, { minMs = 300, minRuns = 3 } = {}) {
  const runs = [];
  const start = performance.now();
  while (runs.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)];
}

export async function timeAsync(fn, { runs = 20, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}

export const round = (n, d = 2) => Number(n.toFixed(d));
