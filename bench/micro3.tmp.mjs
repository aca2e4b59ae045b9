import { spawn } from 'node:child_process';
import { runHook, sharedProcessHost, setSpawnMode } from '@codewhale/hooks-supervisor';
const N = 300;
const bare = () => new Promise((r) => spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore' }).on('exit', r));
const bareDet = () => new Promise((r) => spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore', detached: true }).on('exit', r));
const bareStdin = () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true }); c.stdin.on('error', () => {}); c.stdin.end('{}'); c.on('close', r); });
const hookIdentity = { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false };
const env = { PATH: process.env.PATH };
const rh = () => runHook({ hook: hookIdentity, command: 'true', cwd: process.cwd(), env, stdin: '{}', timeoutSecs: 10, captureOutput: false });
async function rate(f) { const t0 = performance.now(); await Promise.all([0, 1].map(async () => { for (let i = 0; i < N / 2; i++) await f(); })); return N / ((performance.now() - t0) / 1000); }
setSpawnMode('host'); await sharedProcessHost().start();
for (let round = 0; round < 3; round++) {
  const out = {};
  out.bare = await rate(bare);
  out.bareDetached = await rate(bareDet);
  out.bareStdin = await rate(bareStdin);
  setSpawnMode('host'); out.host = await rate(rh);
  setSpawnMode('in-process'); out.inproc = await rate(rh);
  console.log(Object.entries(out).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '), ' host/bare', (out.host / out.bare).toFixed(2));
}
sharedProcessHost().close();
