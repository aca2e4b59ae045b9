/**
 * Test wiring: a real store, hub, broker and runner around real engine sessions
 * (`AgentSession` with a replay script — no model, no network).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession, ReplayProvider } from '@codewhale/engine';
import { ApprovalBroker } from '../src/approval-broker.js';
import { createApp, type AppDeps } from '../src/create-app.js';
import { browserPolicy } from '../src/http/browser-guard.js';
import { EventHub } from '../src/events/event-hub.js';
import { RuntimeStore } from '../src/store/runtime-store.js';
import { SessionTurnRunner, type OpenThreadSession } from '../src/turn-runner.js';

export const TOKEN = 'test-token-0123456789';
export const auth = { authorization: `Bearer ${TOKEN}` };

/** A real engine session (`openSession`, runtime profile, no hooks) playing `script` (one JSON object per model request). */
export function replayOpener(script: () => readonly Record<string, unknown>[], home = mkdtempSync(join(tmpdir(), 'cw-home-'))): OpenThreadSession {
  return async (o) => {
    const host = await openSession({
      workspace: o.workspace,
      home,
      env: { CODEWHALE_HOME: home },
      profile: 'runtime',
      interaction: o.interaction,
      hooks: null,
      provider: ReplayProvider.fromText(
        script()
          .map((t) => JSON.stringify(t))
          .join('\n'),
      ),
      flags: { mode: o.mode, posture: o.posture },
      ...(o.history ? { history: o.history as never } : {}),
    });
    await host.start();
    return host;
  };
}

export interface Rig {
  readonly app: ReturnType<typeof createApp>;
  readonly store: RuntimeStore;
  readonly hub: EventHub;
  readonly broker: ApprovalBroker;
  readonly runner: SessionTurnRunner;
  readonly workspace: string;
  close(): Promise<void>;
}

export function rig(options: { open?: OpenThreadSession; deps?: Partial<AppDeps>; approvalTimeoutMs?: number; script?: () => readonly Record<string, unknown>[] } = {}): Rig {
  const dir = mkdtempSync(join(tmpdir(), 'cw-api-'));
  const store = RuntimeStore.open(join(dir, 'runtime.db'), { synchronous: 'NORMAL' });
  const hub = new EventHub();
  store.onCommit((e) => hub.publish(e));
  const broker = new ApprovalBroker(store, { timeoutMs: options.approvalTimeoutMs ?? 300_000 });
  const runner = new SessionTurnRunner({ store, broker, open: options.open ?? replayOpener(options.script ?? (() => [{ text: 'hello there' }])), secrets: [TOKEN] });
  const app = createApp({
    store,
    hub,
    broker,
    runner,
    token: TOKEN,
    defaultWorkspace: dir,
    version: '0.0.0-test',
    hooksList: () => ({ hooks: [] }),
    // app.request() asks for http://localhost/…; there is no socket to identify a peer by.
    browser: browserPolicy('localhost', 80),
    peerCheck: null,
    ...options.deps,
  });
  return {
    app,
    store,
    hub,
    broker,
    runner,
    workspace: dir,
    close: async () => {
      await runner.close(1_000);
      broker.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Wait until `check` holds (polling; fails after `ms`). */
export async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Read SSE frames from a response until `stop` says enough (or the stream ends). */
export async function readSse(res: Response, stop: (frames: SseFrame[]) => boolean, ms = 5_000): Promise<SseFrame[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const frames: SseFrame[] = [];
  let buf = '';
  const timer = setTimeout(() => void reader.cancel(), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let idx: number;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const raw = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        frames.push(parseFrame(raw));
      }
      if (stop(frames)) break;
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return frames;
}

export interface SseFrame {
  readonly id: string | null;
  readonly event: string | null;
  readonly data: string;
  readonly comment: boolean;
}

function parseFrame(raw: string): SseFrame {
  let id: string | null = null;
  let event: string | null = null;
  const data: string[] = [];
  let comment = false;
  for (const line of raw.split('\n')) {
    if (line.startsWith(':')) comment = true;
    else if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return { id, event, data: data.join('\n'), comment: comment && event === null && data.length === 0 };
}
