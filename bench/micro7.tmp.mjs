import { spawn } from 'node:child_process';
import { HookRuntime, sharedProcessHost, overflowProcessHost, setSpawnMode } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
const N = 600;
const bare = () => new Promise((r) => spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore' }).on('exit', r));
async function rate(f) { const t0 = performance.now(); await Promise.all([0, 1].map(async () => { for (let i = 0; i < N / 2; i++) await f(); })); return N / ((performance.now() - t0) / 1000); }
setSpawnMode('host'); await sharedProcessHost().start(); await overflowProcessHost().start();
const cpuOf = (pid) => { const f = require('fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
for (let r = 0; r < 3; r++) {
  const b = await rate(bare);
  const obs = new HookRuntime({ hooks: hookSet([hookDefinition('turn_end', 'true', { name: 'o' })]), workspace: process.cwd() });
  const c0 = process.cpuUsage(); const h0 = cpuOf(sharedProcessHost().pid), o0 = cpuOf(overflowProcessHost().pid);
  const t0 = performance.now(); let sent = 0;
  while (sent < N) { if (obs.fire('turn_end', {}, '{}').ok) sent++; else await new Promise((res) => setTimeout(res, 1)); }
  await obs.idle(); const rt = N / ((performance.now() - t0) / 1000); const c = process.cpuUsage(c0);
  console.log('bare', b.toFixed(0), 'fire', rt.toFixed(0), 'ratio', (rt / b).toFixed(2), 'agent cpu/event ms', ((c.user + c.system) / 1000 / N).toFixed(3), 'host cpu/event', ((cpuOf(sharedProcessHost().pid) - h0) / N).toFixed(2), 'overflow', ((cpuOf(overflowProcessHost().pid) - o0) / N).toFixed(2));
  await obs.close();
}
sharedProcessHost().close(); overflowProcessHost().close();
