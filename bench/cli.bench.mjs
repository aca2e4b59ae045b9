// cli: start-up of `codewhale --version`, `--help` and `hooks list` against a bare `node -e 0`,
// measured interleaved in the same run and reported as ratios (goals: --version ≤ 1.15×,
// hooks list ≤ 1.5×). `hooks list` runs in an empty workspace with an empty CODEWHALE_HOME.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { round } from './util.mjs';

const bin = join(new URL('..', import.meta.url).pathname, 'packages/cli/dist/bin.js');

export async function run({ runs = 21 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-cli-'));
  const env = { ...process.env, CODEWHALE_HOME: join(dir, 'home'), NO_COLOR: '1' };
  const cases = {
    bare: ['-e', '0'],
    version: [bin, '--version'],
    help: [bin, '--help'],
    list: [bin, 'hooks', 'list'],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  try {
    // Interleaved, so a load spike hits every case alike; the first two rounds warm the page cache.
    for (let i = 0; i < runs + 2; i++) {
      for (const [name, args] of Object.entries(cases)) {
        const t = performance.now();
        const r = spawnSync(process.execPath, args, { stdio: 'ignore', cwd: dir, env });
        const ms = performance.now() - t;
        if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
        if (i >= 2) samples[name].push(ms);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const bare = med(samples.bare);
  const row = (name, key, goal) => {
    const v = med(samples[key]);
    return { name, value: round(v / bare, 2), unit: '× node -e 0', note: `${round(v, 1)} ms vs ${round(bare, 1)} ms${goal ? `; goal ≤ ${goal}×` : ''}` };
  };
  return [
    { name: 'node -e 0 (baseline)', value: round(bare, 1), unit: 'ms' },
    row('codewhale --version', 'version', 1.15),
    row('codewhale --help', 'help'),
    row('codewhale hooks list', 'list', 1.5),
  ];
}
