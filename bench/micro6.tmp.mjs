import { spawn } from 'node:child_process';
import { ProcessHost } from '@codewhale/hooks-supervisor';
const N = 400;
const bare = () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true }); c.stdin.on('error', () => {}); c.stdin.end('{}'); c.on('close', r); });
const env = { ...process.env };
const req = { mode: 'hook', file: '/bin/sh', args: ['-c', 'true'], cwd: process.cwd(), env, stdio: ['pipe', 'ignore', 'ignore'], input: '{}', stdoutMax: 65536, stderrMax: 65536, timeoutMs: 10000, graceMs: 1000, reapMs: 1000, drainMs: 1000, shutdownMs: 1000 };
const h1 = new ProcessHost(), h2 = new ProcessHost();
await h1.start(); await h2.start();
async function rate(f) { const t0 = performance.now(); await Promise.all([0, 1].map(async (w) => { for (let i = 0; i < N / 2; i++) await f(w); })); return N / ((performance.now() - t0) / 1000); }
for (let round = 0; round < 4; round++) {
  const o = {};
  o.bare = await rate(bare);
  o.oneHost = await rate(() => h1.run(req).done);
  o.twoHosts = await rate((w) => (w ? h2 : h1).run(req).done);
  console.log(Object.entries(o).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '), ' one/bare', (o.oneHost / o.bare).toFixed(2), ' two/bare', (o.twoHosts / o.bare).toFixed(2));
}
h1.close(); h2.close();
