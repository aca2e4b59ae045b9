// execa vs node:child_process for the spawn every hook pays (`sh -c true`, three pipes, its
// own process group, awaited until `close`), interleaved in the same run. This is the
// measurement behind spawning with node:child_process (docs/design-notes.md).
// Reproduce: `pnpm build && pnpm bench execa`.
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import { round } from './util.mjs';

const ROUNDS = 60;

function nodeSpawn() {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true'], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
}

// Every optional execa feature off, as the supervisor would need it.
const execaSpawn = () => execa('/bin/sh', ['-c', 'true'], { detached: true, reject: false, buffer: false, cleanup: false, ipc: false, verbose: 'none', stdin: 'pipe' });

export async function run() {
  const samples = { node: [], execa: [] };
  for (let i = 0; i < ROUNDS + 5; i++) {
    for (const [name, fn] of [
      ['node', nodeSpawn],
      ['execa', execaSpawn],
    ]) {
      const t = performance.now();
      await fn();
      if (i >= 5) samples[name].push(performance.now() - t);
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const n = med(samples.node);
  const e = med(samples.execa);
  return [
    { name: 'spawn sh -c true, node:child_process (baseline)', value: round(n, 2), unit: 'ms', note: `median of ${ROUNDS}` },
    { name: 'spawn sh -c true, execa 9.6.1', value: round(e, 2), unit: 'ms', note: `+${round(e - n, 2)} ms per spawn (${round(e / n, 2)}×)` },
  ];
}
