import { spawn } from 'node:child_process';
import { runHook, sharedProcessHost, setSpawnMode } from '@codewhale/hooks-supervisor';
const N = Number(process.env.N) || 200;
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const bare = () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true }); c.stdin.end(); c.stdout.resume(); c.stderr.resume(); c.on('close', r); });
const ballast = process.env.BALLAST ? Array.from({ length: 100 }, () => new Float64Array(128 * 1024).fill(1)) : [];
const env = { PATH: process.env.PATH };
const hookIdentity = { index: 0, name: 'h', label: 'h', event: 'tool_call_before', source: 'global', continueOnError: true, background: false };
const rh = () => runHook({ hook: hookIdentity, command: 'true', cwd: process.cwd(), env, stdin: '{}', timeoutSecs: 10 });
setSpawnMode('host'); await sharedProcessHost().start();
const idle = Number(process.env.IDLE) || 0;
const r = { bare: [], host: [], inproc: [] };
for (let i = 0; i < N; i++) {
  for (const k of ['bare', 'host', 'inproc']) {
    if (k === 'host') setSpawnMode('host'); if (k === 'inproc') setSpawnMode('in-process');
    const f = k === 'bare' ? bare : rh;
    if (idle) await new Promise((res) => setTimeout(res, idle));
    const t = performance.now(); await f(); if (i > 10) r[k].push(performance.now() - t);
  }
}
for (const k in r) console.log(k.padEnd(8), med(r[k]).toFixed(3), 'ms', (med(r[k]) / med(r.bare)).toFixed(2) + '×');
sharedProcessHost().close(); ballast.length = 0;
