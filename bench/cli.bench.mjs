// cli: start-up of `codewhale --version`, `--help` and `hooks list`, and an `import` of
// @codewhale/hooks-config (what an embedder pays to read a config), against a bare `node -e 0`,
// measured interleaved in the same run and reported as ratios (goals: --version ≤ 1.15×,
// hooks list ≤ 1.5×, the import ≤ 1.3×, on wall time; CPU time is shown too, as it holds up on a loaded machine).
// `hooks list` runs in an empty workspace with an empty CODEWHALE_HOME, and every run uses a
// compile cache of its own, which the two warm-up rounds write and grow (one cold run, then
// `hooks list` adds its code): what a user has once each command has run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { round } from './util.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'packages/cli/dist/bin.cjs');
const hooksConfig = pathToFileURL(join(root, 'packages/hooks-config/dist/index.js')).href;

/**
 * CPU time (user + system, ms) of every child this process has waited for, from
 * /proc/self/stat (Linux; 10 ms ticks, so only sums over many runs mean anything). CPU time
 * hardly depends on how loaded the machine is, unlike wall time.
 */
function childCpuMs() {
  if (!existsSync('/proc/self/stat')) return null;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After the command name: state is field 3, so cutime / cstime (16, 17) are at 13 and 14.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

export async function run({ runs = 21 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-cli-'));
  const env = { ...process.env, CODEWHALE_HOME: join(dir, 'home'), CODEWHALE_COMPILE_CACHE: join(dir, 'compile-cache'), NO_COLOR: '1' };
  const cases = {
    bare: ['-e', '0'],
    version: [bin, '--version'],
    help: [bin, '--help'],
    list: [bin, 'hooks', 'list'],
    config: ['--input-type=module', '-e', `await import(${JSON.stringify(hooksConfig)})`],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const cpu = Object.fromEntries(Object.keys(cases).map((k) => [k, 0]));
  try {
    // Interleaved, so a load spike hits every case alike; the first two rounds warm the page cache.
    for (let i = 0; i < runs + 2; i++) {
      for (const [name, args] of Object.entries(cases)) {
        const c = childCpuMs();
        const t = performance.now();
        const r = spawnSync(process.execPath, args, { stdio: 'ignore', cwd: dir, env });
        const ms = performance.now() - t;
        if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
        if (i >= 2) {
          samples[name].push(ms);
          if (c !== null) cpu[name] += childCpuMs() - c;
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const bare = med(samples.bare);
  const row = (name, key, goal) => {
    const v = med(samples[key]);
    const cpuRatio = cpu.bare > 0 ? `; CPU ${round(cpu[key] / cpu.bare, 2)}× (${round(cpu[key] / runs, 1)} vs ${round(cpu.bare / runs, 1)} ms)` : '';
    return { name, value: round(v / bare, 2), unit: '× node -e 0', note: `wall ${round(v, 1)} vs ${round(bare, 1)} ms${cpuRatio}${goal ? `; goal ≤ ${goal}×` : ''}` };
  };
  return [
    { name: 'node -e 0 (baseline)', value: round(bare, 1), unit: 'ms' },
    row('codewhale --version', 'version', 1.15),
    row('codewhale --help', 'help'),
    row('codewhale hooks list', 'list', 1.5),
    row('import @codewhale/hooks-config', 'config', 1.3),
  ];
}
