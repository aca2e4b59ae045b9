// Small helpers shared by the benchmarks.
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function time(fn, { minMs = 300, minRuns = 3 } = {}) {
  const runs = [];
  const start = performance.now();
  while (runs.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)];
}

export const round = (n, d = 2) => Number(n.toFixed(d));

/** A home and a workspace for one `codewhale exec` conversation, and the `[hooks]` text of `gates` `true` gates. */
export function execSandbox(gates, prefix = 'cw-bench-e2e-') {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  const hooks = gates === 0 ? '' : `[hooks]\n${Array.from({ length: gates }, (_, i) => `[[hooks.hooks]]\nname = "gate${i}"\nevent = "tool_call_before"\ncommand = "true"\n`).join('\n')}`;
  return { home, ws, hooks };
}

/**
 * The events of a Runtime API stream response, as they arrive: each frame's parsed `data`
 * envelope, with `stored` true when the frame carries an `id:` (a stored event, not a control
 * frame). Ends with the stream; an abort ends it with the fetch's error.
 */
export async function* sseEnvelopes(response) {
  const reader = response.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = frame.split('\n').find((l) => l.startsWith('data: '));
      if (data) yield { envelope: JSON.parse(data.slice(6)), stored: frame.startsWith('id: ') || frame.includes('\nid: ') };
    }
  }
}
