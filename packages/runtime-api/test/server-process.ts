/** A Runtime API server as a real child process on 127.0.0.1 (for crash and end-to-end tests). */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code / signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function spawnServer(command: string, args: readonly string[], env: Record<string, string>, cwd?: string, timeoutMs = 20_000): Promise<ServerProcess> {
  const child = spawn(command, [...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not print its URL in time; stderr: ${err}`)), timeoutMs);
    const check = () => {
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(out.slice(0, nl).trim());
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before printing its URL; stderr: ${err}`));
    });
  });
  return { url, child, stdout: () => out, stderr: () => err, exited };
}
