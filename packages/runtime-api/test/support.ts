/**
 * Test wiring: a real store, hub, broker and runner around real engine sessions
 * (`AgentSession` with a replay script — no model, no network).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentSession, ReplayProvider } from '@codewhale/engine';
import { ApprovalBroker } from '../src/approval-broker.js';
import { createApp, type AppDeps } from '../src/create-app.js';
import { EventHub } from '../src/events/event-hub.js';
import { RuntimeStore } from '../src/store/runtime-store.js';
import { SessionTurnRunner, type OpenThreadSession, type ThreadSession } from '../src/turn-runner.js';

export const TOKEN = 'test-token-0123456789';
export const auth = { authorization: `Bearer ${TOKEN}` };

/** A real engine session playing `script` (one JSON object per model request). */
export function replayOpener(script: () => readonly Record<string, unknown>[]): OpenThreadSession {
  let n = 0;
  return async (o) => {
    n++;
    const session = new AgentSession({
      provider: ReplayProvider.fromText(script().map((t) => JSON.stringify(t)).join('\n')),
      workspace: o.workspace,
      mode: o.mode,
      posture: o.posture,
      interaction: o.interaction,
      hooks: null,
    });
    const sessionId = `sess_${String(n).padStart(8, '0')}`;
    const adapted: ThreadSession = {
      sessionId,
      subscribe: (l) => session.on(l),
      submit: async (text) => {
        await session.runTurn(text);
        return { kind: 'ran' };
      },
      steer: async (text) => (session.steer(text) ? { kind: 'steered', text } : { kind: 'idle', text }),
      cancel: () => session.cancel(),
      setMode: (m) => session.setMode(m),
      setPosture: (p) => session.setPosture(p),
      conversation: () => ({ version: 1, sessionId, history: session.history }),
      dispose: async () => session.cancel(),
    };
    return adapted;
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
