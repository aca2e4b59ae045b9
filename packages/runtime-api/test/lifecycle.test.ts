/**
 * The server's lifecycle on a real port with a real SQLite file: a graceful stop (new work
 * refused, /health `stopping`, the running turn recorded, streams ended cleanly), server.json,
 * and one server per home.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '@codewhale/engine';
import { startServer, type RunningServer } from '../src/start-server.js';
import type { OpenThreadSession, ThreadSession } from '../src/turn-runner.js';
import { readSse, until } from './support.js';

const TOKEN = 'lifecycle-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const dirs: string[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A session whose turn streams one text delta and then runs until it is cancelled — and ends
 * only once the test opens `gate`, so the test sees the server in the middle of stopping.
 */
function gatedOpener(): { open: OpenThreadSession; release: () => void; cancelled: () => boolean } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let cancelled = false;
  let wake: (() => void) | null = null;
  const opener: OpenThreadSession = async () => {
    const listeners = new Set<(e: HostEvent) => void>();
    const session: ThreadSession = {
      sessionId: 'sess_gated',
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      submit: async () => {
        for (const l of listeners) l({ type: 'text_delta', text: 'working on it' } as HostEvent);
        await new Promise<void>((r) => (wake = r));
        await gate;
        return { kind: 'completed' };
      },
      steer: async () => ({ kind: 'idle', text: '' }),
      cancel: () => {
        cancelled = true;
        wake?.();
      },
      setMode: () => {},
      setPosture: () => {},
      conversation: () => null,
      dispose: async () => {},
    };
    return session;
  };
  return { open: opener, release: () => open(), cancelled: () => cancelled };
}

function home(): { root: string; home: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-life-')));
  dirs.push(root);
  return { root, home: join(root, 'home') };
}

const post = (url: string, path: string, body: unknown) => fetch(url + path, { method: 'POST', headers: H, body: JSON.stringify(body) });

describe('graceful stop', () => {
  it('refuses new work and says stopping, records the running turn as interrupted, ends streams cleanly, removes server.json', async () => {
    const { root, home: h } = home();
    const gated = gatedOpener();
    const server = await startServer({ port: 0, workspace: root, env: { CODEWHALE_HOME: h, CODEWHALE_RUNTIME_TOKEN: TOKEN }, openThreadSession: gated.open });
    expect(statSync(server.infoFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(server.infoFile, 'utf8'))).toMatchObject({ pid: process.pid, url: server.url, port: server.port, database: server.databasePath });
    const { thread } = (await (await post(server.url, '/v1/threads', { posture: 'full_access' })).json()) as { thread: { id: string } };
    const { turn } = (await (await post(server.url, `/v1/threads/${thread.id}/turns`, { prompt: 'work' })).json()) as { turn: { id: string } };
    const stream = await fetch(`${server.url}/v1/threads/${thread.id}/events`, { headers: H });
    const frames = readSse(stream, () => false, 20_000);
    await until(() => server.store.listItems(thread.id).some((i) => i.kind === 'agent_message'));

    const closing = server.close();
    // Stopping, but still listening until the turn is recorded: a client can see why.
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'stopping' });
    const refused = await post(server.url, '/v1/threads', {});
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    await until(() => gated.cancelled());
    gated.release();
    await closing;

    // The stream delivered the interrupted turn, then said the server stops, then ended (no reset).
    const got = await frames;
    const names = got.map((f) => f.event).filter((e) => e !== null);
    expect(names.at(-1)).toBe('server.stopping');
    const completed = got.find((f) => f.event === 'turn.completed')!;
    expect(JSON.parse(completed.data).payload.turn).toMatchObject({ id: turn.id, status: 'interrupted' });
    expect(names.indexOf('turn.completed')).toBeLessThan(names.indexOf('server.stopping'));
    expect(existsSync(server.infoFile)).toBe(false);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();

    // A restart finds nothing to recover: the stop recorded everything itself.
    const again = await startServer({ port: 0, workspace: root, env: { CODEWHALE_HOME: h, CODEWHALE_RUNTIME_TOKEN: TOKEN }, openThreadSession: gated.open });
    servers.push(again);
    expect(again.recovered).toEqual({ interruptedTurns: 0, expiredApprovals: 0 });
    expect(again.store.listTurns(thread.id).map((t) => t.status)).toEqual(['interrupted']);
  }, 30_000);
});

describe('one server per home', () => {
  it('a second server on the same home is refused with the first one’s pid and URL, and changes nothing', async () => {
    const { root, home: h } = home();
    const env = { CODEWHALE_HOME: h };
    const first = await startServer({ port: 0, workspace: root, env, openThreadSession: gatedOpener().open });
    servers.push(first);
    const runtimeDir = join(h, 'runtime');
    const before = readdirSync(h)
      .concat(readdirSync(runtimeDir))
      .map((f) => f);
    const stat = (f: string) => statSync(f).mtimeMs;
    const dbBefore = stat(first.databasePath);
    const tokenBefore = readFileSync(join(h, 'runtime-token'), 'utf8');
    const err = await startServer({ port: 0, workspace: root, env, openThreadSession: gatedOpener().open }).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe('startup');
    expect(err!.message).toContain(`pid ${process.pid}`);
    expect(err!.message).toContain(first.url);
    expect(readdirSync(h).concat(readdirSync(runtimeDir))).toEqual(before);
    expect(stat(first.databasePath)).toBe(dbBefore);
    expect(readFileSync(join(h, 'runtime-token'), 'utf8')).toBe(tokenBefore);
    expect(JSON.parse(readFileSync(first.infoFile, 'utf8')).url).toBe(first.url);
    // The first is untouched and still serves.
    expect(await (await fetch(`${first.url}/health`)).json()).toEqual({ status: 'ok' });

    // Once the first has stopped, the home is free again.
    await first.close();
    const second = await startServer({ port: 0, workspace: root, env, openThreadSession: gatedOpener().open });
    servers.push(second);
    expect(JSON.parse(readFileSync(second.infoFile, 'utf8')).url).toBe(second.url);
  }, 30_000);
});
