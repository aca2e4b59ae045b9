// cli: start-up of `codewhale --version` / `--help` against a bare `node -e 0`, measured in the same run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { round } from './util.mjs';

const bin = join(new URL('..', import.meta.url).pathname, 'packages/cli/dist/bin.js');

function median(args, runs = 15) {
  const samples = [];
  for (let i = 0; i < runs + 2; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i >= 2) samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

export async function run() {
  const bare = median(['-e', '0']);
  const version = median([bin, '--version']);
  const help = median([bin, '--help']);
  return [
    { name: 'node -e 0 (baseline)', value: round(bare, 1), unit: 'ms' },
    { name: 'codewhale --version', value: round(version, 1), unit: 'ms', note: `+${round(version - bare, 1)} ms over bare node` },
    { name: 'codewhale --help', value: round(help, 1), unit: 'ms', note: `+${round(help - bare, 1)} ms over bare node` },
  ];
}
