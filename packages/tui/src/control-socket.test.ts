import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHost } from '../test/fake-host.js';
import { answerControlLine, controlSocketPath, openControlSocket } from './control-socket.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ask(path: string, payload: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    let buf = '';
    const want = payload.split('\n').filter((l) => l.trim()).length;
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      buf += d;
      if (buf.split('\n').filter(Boolean).length >= want) {
        s.end();
        resolve(buf.split('\n').filter(Boolean));
      }
    });
    s.on('error', reject);
    s.write(payload);
  });
}

describe('control socket', () => {
  it('answers status from the host snapshot over a real 0600 Unix socket, and is removed on close', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cw-sock-'));
    dirs.push(home);
    const host = new FakeHost();
    const path = controlSocketPath(home, host.sessionId);
    const sock = await openControlSocket(path, () => host.getSnapshot());
    expect(statSync(path).mode & 0o777).toBe(0o600);
    host.update({ state: 'waiting', reason: 'approval', turnId: 'turn_1', busy: true });
    const [status, unknown, bad] = await ask(path, '{"verb":"status"}\n{"verb":"reboot"}\nnot json\n');
    expect(JSON.parse(status!)).toEqual({ session_id: 'sess_fake0001', state: 'waiting', reason: 'approval', workspace: '/ws', mode: 'work', turn_id: 'turn_1' });
    expect(JSON.parse(unknown!)).toEqual({ error: 'unknown verb `reboot`', verbs: ['status'] });
    expect(JSON.parse(bad!).error).toMatch(/invalid JSON/);
    await sock.close();
    expect(existsSync(path)).toBe(false);
  });

  it('property: any request line gets one JSON object back, never a throw', () => {
    const host = new FakeHost();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.record({ verb: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }).map((o) => JSON.stringify(o)),
        ),
        (line) => {
          const r = answerControlLine(line, () => host.getSnapshot()) as Record<string, unknown>;
          expect(typeof r).toBe('object');
          expect('error' in r || 'state' in r).toBe(true);
          expect(JSON.stringify(r)).not.toMatch(/[\x00-\x1f]/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
