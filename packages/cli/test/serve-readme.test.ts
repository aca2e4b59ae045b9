/**
 * The root README's `codewhale serve` example, run as written: the built binary on a free port,
 * the token from the file it generates, curl and node as a user has them. Only the model is a
 * stand-in (a fake OpenAI-compatible server named in the config).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer } from '@codewhale/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from './run-cli.js';

const ROOT_README = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'README.md');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const API_README = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'runtime-api', 'README.md');

/** The first ```sh block after `heading` in a README. */
function shBlock(file: string, heading: string): string {
  const text = readFileSync(file, 'utf8');
  const section = text.slice(text.indexOf(heading));
  const m = /```sh\n([\s\S]*?)\n```/.exec(section);
  if (!m) throw new Error(`no sh block after ${heading} in ${file}`);
  return m[1]!;
}
const serveExample = () => shBlock(ROOT_README, '## The Runtime API (`codewhale serve`)');

/** A home with a config naming the fake model, a `codewhale` on PATH, a workspace; runs `script` with bash there. */
async function runScript(script: string, turns: number): Promise<{ code: number | null; stdout: string; stderr: string; ws: string }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-readme-serve-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const fake = await startFakeOpenAIServer({ turns: Array.from({ length: turns }, () => ({ text: 'hello from the model' })) });
  cleanups.push(() => fake.close());
  const home = join(root, '.codewhale');
  const bin = join(root, 'bin');
  const ws = join(root, 'ws');
  for (const d of [home, bin, ws]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, 'config.toml'), `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n`);
  writeFileSync(join(bin, 'codewhale'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'codewhale'), 0o755);
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: ws,
      env: { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: root, FAKE_API_KEY: 'fake-key', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ws });
    });
  });
}

describe('the root README', () => {
  it('runs its codewhale serve example verbatim: the URL from the first line, a thread, a turn, the events, a clean stop', async () => {
    if (!existsSync(BIN)) throw new Error(`build the CLI first: ${BIN} is missing`);
    const script = serveExample();
    expect(script).not.toContain(':7878');
    const run = await runScript(script, 2);
    const ws = run.ws;
    expect(run.code, run.stderr).toBe(0);
    // The turn as JSON, then grep's lines.
    const turnJson = run.stdout.slice(0, run.stdout.indexOf('event: turn'));
    expect(JSON.parse(turnJson)).toMatchObject({
      turn: { id: expect.stringMatching(/^turn_/), prompt: 'hi' },
      items: expect.arrayContaining([expect.objectContaining({ kind: 'user_message', summary: 'hi' })]),
    });
    expect(run.stdout).toContain('event: turn.started');
    expect(run.stdout).toContain('event: turn.completed');
    expect(readFileSync(join(ws, 'serve.log'), 'utf8').split('\n')[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(join(ws, 'events.txt'), 'utf8')).toContain('event: server.stopping');
  }, 60_000);

  it('has the Runtime API README run an example of every route of the OpenAPI document, verbatim, and list every event', async () => {
    if (!existsSync(BIN)) throw new Error(`build the CLI first: ${BIN} is missing`);
    const script = shBlock(API_README, '## Routes');
    const { openApiDocument } = await import('@codewhale/runtime-api');
    const doc = openApiDocument('1') as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    for (const [path, ops] of Object.entries(doc.paths)) {
      // `{id}` in the document is a shell variable in the example.
      const shape = new RegExp(`\\$URL${path.replace(/\{[a-z_]+\}/g, '\\$[A-Z]+').replace(/\//g, '\\/')}(["?\\s]|$)`, 'm');
      for (const method of Object.keys(ops)) {
        const lines = script.split('\n').filter((l) => shape.test(l));
        const hasMethod = method === 'get' ? lines.some((l) => !/-X (POST|DELETE)/.test(l)) : lines.some((l) => l.includes(`-X ${method.toUpperCase()}`));
        expect(hasMethod, `${method} ${path}`).toBe(true);
      }
    }
    const readme = readFileSync(API_README, 'utf8');
    const events = Object.keys((doc.components.schemas.Event as { discriminator: { mapping: Record<string, string> } }).discriminator.mapping);
    expect(events.length).toBeGreaterThan(10);
    // Each event has a row in the README's event table.
    const rows = readme.split('\n').filter((l) => l.startsWith('| `'));
    for (const name of events)
      expect(
        rows.some((r) => r.split('|')[1]!.includes(`\`${name}\``)),
        name,
      ).toBe(true);
    const run = await runScript(script, 4);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"status":"ok"');
    expect(run.stdout).toContain('"deleted":true');
    expect(run.stdout).toContain('"head_seq"');
  }, 90_000);
});
