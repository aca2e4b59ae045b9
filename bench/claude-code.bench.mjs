// A `tool_call_before` gate speaking the claude-code protocol (the peer's stdin document built,
// written and its JSON answer read and mapped back) against a native gate, through HookRuntime,
// interleaved in one run. Both gates are the same kind of process: they drain stdin and print
// an allow verdict in their own protocol. Goal: the protocol gate costs ≤ 1.2× the native one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookRuntime } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
import { round } from './util.mjs';

const RUNS = 60;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-cc-'));
  const runtime = (command, protocol) =>
    new HookRuntime({ hooks: hookSet([hookDefinition('tool_call_before', command, { name: protocol, protocol })]), workspace: dir, parentEnv: Object.freeze({ PATH: process.env.PATH }) });
  const native = runtime(`cat >/dev/null; echo '{"decision":"allow"}'`, 'codewhale');
  const peer = runtime(
    `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"${dir}/src/app.ts","content":"x"}}}'`,
    'claude-code',
  );
  const input = { path: 'src/app.ts', content: 'export const answer = 42;\n'.repeat(20) };
  const times = { native: [], peer: [] };
  for (let i = 0; i < RUNS + 5; i++) {
    for (const [k, rt] of i % 2 === 0
      ? [
          ['native', native],
          ['peer', peer],
        ]
      : [
          ['peer', peer],
          ['native', native],
        ]) {
      const t = performance.now();
      const record = await rt.toolCallBefore({ name: 'write', callId: `c${i}`, input, mode: 'Agent', model: 'm', posture: 'ask' });
      if (record.decision !== 'allow') throw new Error(`${k} gate did not allow`);
      if (i >= 5) times[k].push(performance.now() - t);
    }
  }
  await native.close();
  await peer.close();
  const n = median(times.native);
  const p = median(times.peer);
  return [
    { name: 'native gate (tool_call_before, write)', value: round(n), unit: 'ms', note: `median of ${RUNS}, interleaved` },
    { name: 'claude-code gate vs native gate', value: round(p / n), unit: '× native', note: `${round(p)} ms vs ${round(n)} ms; goal ≤ 1.2; Node ${process.versions.node}` },
  ];
}
