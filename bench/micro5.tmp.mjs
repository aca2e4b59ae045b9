import { HookRuntime, sharedProcessHost, setSpawnMode } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
const N = 600;
setSpawnMode('host'); await sharedProcessHost().start();
const obs = new HookRuntime({ hooks: hookSet([hookDefinition('turn_end', 'true', { name: 'o' })]), workspace: process.cwd() });
const t0 = performance.now(); let sent = 0;
while (sent < N) { if (obs.fire('turn_end', {}, '{}').ok) sent++; else await new Promise((res) => setTimeout(res, 1)); }
await obs.idle(); console.log('rate', (N / ((performance.now() - t0) / 1000)).toFixed(0)); await obs.close();
sharedProcessHost().close();
await new Promise((r) => setTimeout(r, 500));
