import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { SessionSnapshot } from '@codewhale/engine';

/** What `{"verb":"status"}` answers: read from the same snapshot the state hooks fire from. */
export interface StatusReply {
  readonly session_id: string | null;
  readonly state: SessionSnapshot['state'];
  readonly reason: SessionSnapshot['reason'];
  readonly workspace: string;
  readonly mode: SessionSnapshot['mode'];
  readonly turn_id: string | null;
}

export const CONTROL_VERBS = ['status'] as const;
/** A request line longer than this is refused (and the connection closed). */
export const MAX_REQUEST_BYTES = 64 * 1024;

export function statusReply(s: SessionSnapshot): StatusReply {
  return { session_id: s.sessionId, state: s.state, reason: s.reason, workspace: s.workspace, mode: s.mode, turn_id: s.turnId };
}

/** Answer one request line. Never throws: bad input gets an error object. Pure. */
export function answerControlLine(line: string, snapshot: () => SessionSnapshot): object {
  let req: unknown;
  try {
    req = JSON.parse(line);
  } catch {
    return { error: 'invalid JSON: send one JSON object per line, e.g. {"verb":"status"}' };
  }
  if (!req || typeof req !== 'object' || Array.isArray(req)) return { error: 'expected a JSON object with a "verb"', verbs: CONTROL_VERBS };
  const verb = (req as { verb?: unknown }).verb;
  if (verb === 'status') return statusReply(snapshot());
  const shown = typeof verb === 'string' ? verb.replace(/[^\x20-\x7e]/g, '?').slice(0, 40) : typeof verb;
  return { error: `unknown verb \`${shown}\``, verbs: CONTROL_VERBS };
}

/** `$CODEWHALE_HOME/run/<session id>.sock`. */
export function controlSocketPath(home: string, sessionId: string): string {
  return join(home, 'run', `${sessionId}.sock`);
}

export interface ControlSocket {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listen on a Unix socket (mode 0600, in a 0700 directory) speaking newline-delimited JSON.
 * A stale socket file of the same name is replaced. `close()` removes the file.
 */
export async function openControlSocket(path: string, snapshot: () => SessionSnapshot): Promise<ControlSocket> {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  rmSync(path, { force: true });
  const sockets = new Set<Socket>();
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.setEncoding('utf8');
    let buf = '';
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_REQUEST_BYTES && !buf.includes('\n')) {
        sock.end(`${JSON.stringify({ error: `request line over ${MAX_REQUEST_BYTES} bytes` })}\n`);
        buf = '';
        return;
      }
      let nl: number;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) sock.write(`${JSON.stringify(answerControlLine(line, snapshot))}\n`);
      }
    });
    sock.on('error', () => sock.destroy());
    sock.on('close', () => sockets.delete(sock));
  });
  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(oldMask);
  }
  chmodSync(path, 0o600);
  let closed: Promise<void> | null = null;
  return {
    path,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(path, { force: true });
          resolve();
        });
      })),
  };
}
