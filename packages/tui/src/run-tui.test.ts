import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHost } from '../test/fake-host.js';
import { runTui, TUI_EXIT } from './run-tui.js';

function tty() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode() {}, ref() {}, unref() {} }) as unknown as NodeJS.ReadStream;
  let out = '';
  const stdout = Object.assign(
    new Writable({
      write(chunk, _e, cb) {
        out += String(chunk);
        cb();
      },
    }),
    { isTTY: true, columns: 80, rows: 24 },
  ) as unknown as NodeJS.WriteStream;
  return {
    stdin,
    stdout,
    get out() {
      return out;
    },
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('runTui start-up', () => {
  it('a configuration error exits 3 (as every codewhale command), with the file and no stack trace', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cw-tui-start-'));
    dirs.push(root);
    const home = join(root, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.toml'), 'provider = [unclosed\n');
    const t = tty();
    let err = '';
    const stderr = Object.assign(new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) }), { isTTY: true }) as unknown as NodeJS.WriteStream;
    const code = await runTui({ workspace: root, env: { HOME: root, CODEWHALE_HOME: home, PATH: process.env.PATH }, stdin: t.stdin, stdout: t.stdout, stderr });
    expect(code).toBe(TUI_EXIT.config);
    expect(code).toBe(3);
    expect(err).toMatch(/^error: .*config\.toml/m);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('says it is starting while session_start hooks run, and removes the line once the UI is up', async () => {
    const host = new FakeHost();
    let release!: () => void;
    const started = new Promise<void>((r) => (release = r));
    host.start = async () => {
      await started;
    };
    // A home of its own: runs of this test in other checkouts must not share control sockets.
    const root = mkdtempSync(join(tmpdir(), 'cw-tui-start-'));
    dirs.push(root);
    const t = tty();
    const done = runTui({ workspace: '/ws', env: { HOME: root, CODEWHALE_HOME: join(root, 'home') }, stdin: t.stdin, stdout: t.stdout, stderr: t.stdout, openSession: async () => host });
    for (let i = 0; i < 100 && !/starting the session/.test(t.out); i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.out).toMatch(/starting the session \(session_start hooks run first\)…$/);
    release();
    for (let i = 0; i < 200 && !/idle · Work/.test(t.out); i++) await new Promise((r) => setTimeout(r, 10));
    // The line is erased (ESC[2K) before the first frame, which is drawn in its place.
    expect(t.out).toMatch(/starting the session[^\n]*…\r\x1b\[2K/);
    t.stdin.write('/quit\r');
    expect(await done).toBe(0);
  });
});
