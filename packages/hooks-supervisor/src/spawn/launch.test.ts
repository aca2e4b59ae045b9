import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { forceSpawner, launch, spawnerInUse, type LaunchSpec, type SpawnerKind } from './launch.js';
import { exitStatus, nativeModulePath } from './native.js';
import { runProcess, type Sink } from './run-process.js';
import { SPAWNERS } from '../../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-launch-'));
const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');

afterAll(() => forceSpawner(null));

class Text implements Sink {
  #chunks: Uint8Array[] = [];
  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
  }
  get text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** Generous bounds for a run in a test: it ends by itself long before. */
const LIMITS = { timeoutMs: 20_000, graceMs: 500, reapMs: 2_000, drainMs: 2_000, shutdownMs: 1_000 } as const;

/** `sh -c script` started `kind`'s way, to its end: exit code or signal, and stdout. */
async function sh(kind: SpawnerKind, script: string, env: Record<string, string> = { PATH: process.env.PATH ?? '/bin' }, args: string[] = []) {
  forceSpawner(kind);
  const out = new Text();
  const r = await runProcess({
    file: '/bin/sh',
    args: ['-c', script, 'sh', ...args],
    cwd: dir,
    env,
    input: null,
    stdout: out,
    stderr: null,
    ...LIMITS,
  });
  return { r, out: out.text };
}

const both = SPAWNERS.length === 2;

describe.runIf(both)('the native spawner gives a child what child_process gives it', () => {
  it('the same signal mask, ignored signals, session and group', async () => {
    // `exec cat`: what the program the shell runs starts with, not the shell's own handlers.
    const probe = 'exec cat /proc/self/status /proc/self/stat';
    const state = (text: string) => {
      const stat = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const pid = /^Pid:\s+(\d+)/m.exec(text)?.[1];
      return {
        blocked: /^SigBlk:\s+(\S+)/m.exec(text)?.[1],
        ignored: /^SigIgn:\s+(\S+)/m.exec(text)?.[1],
        leadsGroup: stat[2] === pid,
        leadsSession: stat[3] === pid,
      };
    };
    const native = state((await sh('native', probe)).out);
    const node = state((await sh('child_process', probe)).out);
    expect(native).toEqual(node);
    expect(native).toEqual({ blocked: '0000000000000000', ignored: '0000000000000000', leadsGroup: true, leadsSession: true });
  });

  it('the same exit code, for every code', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 255 }), async (code) => {
        const a = await sh('native', `exit ${code}`);
        const b = await sh('child_process', `exit ${code}`);
        expect(a.r).toEqual(b.r);
        expect(a.r).toMatchObject({ kind: 'exited', exit: { code, signal: null } });
      }),
      { numRuns: 40 },
    );
  });

  it('the same signal name for every signal that ends it', async () => {
    for (let sig = 1; sig <= 31; sig++) {
      if (sig === 17 || sig === 18 || sig === 19 || sig === 20 || sig === 21 || sig === 22 || sig === 23 || sig === 28) continue; // stop, continue or ignored by default
      const a = await sh('native', `kill -${sig} $$; sleep 1`);
      const b = await sh('child_process', `kill -${sig} $$; sleep 1`);
      expect(a.r, `signal ${sig}`).toEqual(b.r);
    }
  });

  it('the same arguments and environment, for any text', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('\0'));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 4 }), text, async (args, value) => {
        const env = { PATH: process.env.PATH ?? '/bin', CW_VALUE: value };
        const script = 'for a in "$@"; do printf "%s\\0" "$a"; done; printf "%s" "$CW_VALUE"';
        const a = await sh('native', script, env, args);
        const b = await sh('child_process', script, env, args);
        expect(a.out).toBe(b.out);
        expect(a.out).toBe(args.map((x) => `${x}\0`).join('') + value);
      }),
      { numRuns: 30 },
    );
  });

  it('the same refusal of a NUL in a value, before anything starts', async () => {
    for (const kind of SPAWNERS) {
      forceSpawner(kind);
      const spec: LaunchSpec = { file: '/bin/sh', args: ['-c', 'true'], cwd: dir, env: { BAD: 'a\0b' }, input: null, stdout: false, stderr: false };
      expect(await launch(spec), kind).toEqual({ ok: false, code: 'ERR_INVALID_ARG_VALUE' });
    }
  });

  it('the same start errors: a missing program or directory, a file that is not executable', async () => {
    const notExecutable = join(dir, 'plain');
    writeFileSync(notExecutable, '#!/bin/sh\n');
    for (const [file, cwd, code] of [
      [join(dir, 'missing'), dir, 'ENOENT'],
      ['/bin/sh', join(dir, 'no-such-dir'), 'ENOENT'],
      [notExecutable, dir, 'EACCES'],
    ] as const) {
      for (const kind of SPAWNERS) {
        forceSpawner(kind);
        expect(await launch({ file, args: [], cwd, env: {}, input: null, stdout: false, stderr: false }), `${kind} ${file}`).toEqual({ ok: false, code });
      }
    }
  });

  it('leaves a program given by name, not path, to child_process (which searches PATH)', async () => {
    forceSpawner('native');
    const r = await runProcess({
      file: 'sh',
      args: ['-c', 'exit 7'],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/bin' },
      input: null,
      stdout: null,
      stderr: null,
      timeoutMs: 10_000,
      graceMs: 100,
      reapMs: 1_000,
      drainMs: 1_000,
      shutdownMs: 1_000,
    });
    expect(r).toMatchObject({ kind: 'exited', exit: { code: 7 } });
  });
});

describe('exit statuses', () => {
  it('decodes a raw wait status as Node names it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (code) => {
        expect(exitStatus(code << 8)).toEqual({ code, signal: null });
      }),
    );
    expect(exitStatus(9)).toEqual({ code: null, signal: 'SIGKILL' });
    // Signal 6 has two names; Node's child_process says SIGABRT.
    expect(exitStatus(6)).toEqual({ code: null, signal: 'SIGABRT' });
    expect(exitStatus(6 | 0x80)).toEqual({ code: null, signal: 'SIGABRT' }); // with a core dump
    expect(exitStatus(-2)).toEqual({ code: null, signal: null });
  });
});

describe('choosing the spawner', () => {
  // A fresh process each: the module is looked for and loaded once per process.
  const chosen = (env: Record<string, string>, code = 'console.log(m.spawnerInUse())') => {
    expect(existsSync(dist), 'build the package first (pnpm test does)').toBe(true);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(dist)}); ${code}`], { encoding: 'utf8', env: { ...process.env, ...env } });
    return r.stdout.trim();
  };

  it.runIf(both)('is native by default where the module is there', () => {
    expect(chosen({})).toBe('native');
    expect(nativeModulePath()).toMatch(/codewhale-spawn\.linux-(x64|arm64)-(gnu|musl)\.node$/);
  });

  it('is child_process when CODEWHALE_SPAWN says so, when the module is missing, and when it does not load', () => {
    const garbage = join(dir, 'garbage.node');
    writeFileSync(garbage, 'not a shared object');
    expect(chosen({ CODEWHALE_SPAWN: ' Child_Process ' })).toBe('child_process');
    expect(chosen({ CODEWHALE_SPAWN_MODULE: join(dir, 'absent.node') })).toBe('child_process');
    expect(chosen({ CODEWHALE_SPAWN_MODULE: garbage })).toBe('child_process');
    // And a hook still runs, the fallback's way.
    const hook = `const o = await m.runHook({ hook: { index: 0, name: 'h', label: 'h', event: 'turn_end', source: 'global', continueOnError: true, background: false }, command: 'echo ran', cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 5 }); console.log(m.spawnerInUse(), o.stdout.trim());`;
    expect(chosen({ CODEWHALE_SPAWN_MODULE: garbage }, hook)).toBe('child_process ran');
  });

  it.runIf(both)('is child_process in a worker thread (SIGCHLD reaches the main thread only)', () => {
    const code = `const { Worker } = await import('node:worker_threads'); const w = new Worker(${JSON.stringify(`Promise.all([import(${JSON.stringify(dist)}), import('node:worker_threads')]).then(([m, t]) => t.parentPort.postMessage(m.spawnerInUse()))`)}, { eval: true }); w.on('message', (k) => { console.log(m.spawnerInUse(), k); w.terminate(); });`;
    expect(chosen({}, code)).toBe('native child_process');
  });

  it('names the way the next process starts', () => {
    forceSpawner('child_process');
    expect(spawnerInUse()).toBe('child_process');
    forceSpawner(null);
    expect(SPAWNERS).toContain(spawnerInUse());
  });
});

describe.each(SPAWNERS)('runProcess stops a run (%s)', (kind) => {
  const base = { file: '/bin/sh', cwd: dir, env: { PATH: process.env.PATH ?? '/bin' }, input: null, stdout: null, stderr: null, graceMs: 200, reapMs: 2_000, drainMs: 2_000, shutdownMs: 1_000 };

  it('starts nothing for a signal that was aborted already', async () => {
    forceSpawner(kind);
    const started: number[] = [];
    const r = await runProcess({ ...base, args: ['-c', 'true'], timeoutMs: 10_000, signal: AbortSignal.abort(), onSpawn: (pid) => started.push(pid) });
    expect(r).toEqual({ kind: 'stopped', by: 'abort', exit: null });
    expect(started).toEqual([]);
  });

  it('kills the whole group when the signal aborts mid-run, and says so', async () => {
    forceSpawner(kind);
    const pidFile = join(dir, `abort-${kind}.pid`);
    const controller = new AbortController();
    const run = runProcess({ ...base, args: ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], timeoutMs: 60_000, signal: controller.signal });
    // The file exists as soon as the shell opens it: wait for the pid in it.
    for (let i = 0; i < 500 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n')); i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const r = await run;
    expect(r).toMatchObject({ kind: 'stopped', by: 'abort', exit: { code: null, signal: 'SIGTERM' } });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    // The backgrounded sleep was in the group: it is gone (or a zombie of PID 1 at most) once
    // the SIGKILL it was sent has been delivered, which may take a moment on a busy machine.
    const state = (): string => {
      try {
        return readFileSync(`/proc/${grandchild}/stat`, 'utf8').split(') ')[1]?.[0] ?? 'gone';
      } catch {
        return 'gone';
      }
    };
    for (let i = 0; i < 200 && !['gone', 'Z', 'X'].includes(state()); i++) await new Promise((r) => setTimeout(r, 10));
    expect(['gone', 'Z', 'X']).toContain(state());
  });

  it('takes a timeout beyond what a Node timer holds as "not yet", not as "at once"', async () => {
    forceSpawner(kind);
    // setTimeout fires at once for a delay over 2^31 - 1 ms; the run must exit by itself instead.
    const r = await runProcess({ ...base, args: ['-c', 'sleep 0.2; exit 4'], timeoutMs: 2 ** 40 });
    expect(r).toMatchObject({ kind: 'exited', exit: { code: 4 } });
  });
});

describe.each(SPAWNERS)('a child reads its whole input, then end of file (%s)', (kind) => {
  /** `cat`'s copy of `input`, through a run of `kind`. */
  async function echoed(input: string): Promise<Buffer> {
    forceSpawner(kind);
    const chunks: Uint8Array[] = [];
    const r = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'exec cat'],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/bin' },
      input,
      stdout: { push: (c) => chunks.push(c) },
      stderr: null,
      ...LIMITS,
    });
    expect(r).toMatchObject({ kind: 'exited', exit: { code: 0, signal: null }, complete: true });
    return Buffer.concat(chunks);
  }

  it('for any input: empty, small, and past what the pipe holds before the child reads', async () => {
    const text = (n: number) => fc.string({ unit: 'binary', minLength: n, maxLength: n });
    const sizes = fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 100_000, max: 300_000 }), fc.constant(1 << 20));
    await fc.assert(
      fc.asyncProperty(
        sizes.chain((n) => text(Math.min(n, 64)).map((seed) => ({ n, seed }))),
        async ({ n, seed }) => {
          // Any Unicode text, written as UTF-8: `seed` repeated to about `n` characters.
          const input = seed.length === 0 ? '' : seed.repeat(Math.ceil(n / seed.length));
          expect((await echoed(input)).equals(Buffer.from(input, 'utf8'))).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe.runIf(both)('the native spawner writes the input before the child starts', () => {
  const spec = (input: Uint8Array): LaunchSpec => ({ file: '/bin/sh', args: ['-c', 'exec cat'], cwd: dir, env: {}, input, stdout: true, stderr: false });

  it('leaves no pipe to write when the input fits, and the rest of a longer one to write', async () => {
    forceSpawner('native');
    for (const [size, left] of [
      [0, false],
      [10_000, false],
      [4 << 20, true],
    ] as const) {
      const launched = await launch(spec(Buffer.alloc(size, 0x61)));
      if (!launched.ok) throw new Error(launched.code);
      const { child } = launched;
      expect(child.stdin !== null, `${size} bytes`).toBe(left);
      let got = 0;
      child.stdout?.on('data', (c: Uint8Array) => (got += c.length));
      await new Promise((resolve) => child.stdout?.once('close', resolve));
      expect(got, `${size} bytes`).toBe(size);
      expect(await child.exit).toEqual({ code: 0, signal: null });
    }
  });
});
