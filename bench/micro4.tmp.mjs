import { spawn } from 'node:child_process';
import { HookRuntime, runHook, sharedProcessHost, setSpawnMode } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
const N = 300;
const bare = () => new Promise((r) => spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore' }).on('exit', r));
async function rate(f) { const t0 = performance.now(); await Promise.all([0, 1].map(async () => { for (let i = 0; i < N / 2; i++) await f(); })); return N / ((performance.now() - t0) / 1000); }
const hookIdentity = { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false };
const rh = () => runHook({ hook: hookIdentity, command: 'true', cwd: process.cwd(), env: { PATH: process.env.PATH }, stdin: '{}', timeoutSecs: 10, captureOutput: false });
async function fireRate(mode) {
  setSpawnMode(mode);
  const obs = new HookRuntime({ hooks: hookSet([hookDefinition('turn_end', 'true', { name: 'o' })]), workspace: process.cwd() });
  obs.fire('turn_end', {}, '{}'); await obs.idle();
  const t0 = performance.now(); let sent = 0;
  while (sent < N) { if (obs.fire('turn_end', {}, '{}').ok) sent++; else await new Promise((res) => setTimeout(res, 1)); }
  await obs.idle(); const r = N / ((performance.now() - t0) / 1000); await obs.close(); return r;
}
setSpawnMode('host'); await sharedProcessHost().start();
for (let round = 0; round < 3; round++) {
  const out = {};
  out.bare = await rate(bare);
  setSpawnMode('host'); out.runHook = await rate(rh);
  out.fireHost = await fireRate('host');
  out.fireInproc = await fireRate('in-process');
  console.log(Object.entries(out).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '), ' fireHost/bare', (out.fireHost / out.bare).toFixed(2));
}
sharedProcessHost().close();
