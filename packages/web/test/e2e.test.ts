/**
 * The web client end to end: a real `codewhale serve` (the built CLI) on a real port, the fake
 * OpenAI server as the model, real hook scripts, and Debian's Chromium driven by
 * playwright-core (no browser download). Screenshots of each main screen go to the Runtime
 * API's docs folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env['CODEWHALE_CHROMIUM'] ?? '/usr/bin/chromium';
const CLI = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));
const SHOTS = fileURLToPath(new URL('../../runtime-api/docs/screenshots/', import.meta.url));
const TOKEN = 'web-e2e-runtime-token-0123456789';
const API_KEY = 'sk-web-e2e-model-key';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const bash = (command: string): FakeTurn => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });
const LONG_REPLY = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

// The model's script, in the order the tests below ask for it.
const TURNS: FakeTurn[] = [
  // 1. A gated tool call the hook asks about, then Markdown with raw HTML in it.
  bash('echo needs-ask; echo ran-it'),
  { text: 'All **done**: `ran-it`.\n\n<img src=x onerror="window.__pwned=1"> [bad](javascript:alert(1)) \u202Eevil' },
  // 2. An approval a second client answers.
  bash('echo needs-ask second'),
  { text: 'second done' },
  // 3. A slow stream to reload in the middle of.
  { text: LONG_REPLY, chunkDelayMs: 60 },
  // 4. A turn after the server restarted under an open page.
  { text: 'after the restart' },
  // 5. "Always": the call asks once, then runs unasked.
  bash('echo always-ok'),
  { text: 'always one' },
  bash('echo always-ok'),
  { text: 'always two' },
  // 6. A question for the person at the page.
  {
    tool_calls: [
      {
        name: 'request_user_input',
        arguments: { questions: [{ id: 'lang', header: 'Language', question: 'Which language?', options: [{ label: 'TypeScript' }, { label: 'Rust', description: 'the fast one' }] }] },
      },
    ],
  },
  { text: 'answered' },
  // 7. A write to an existing file, shown as a diff.
  { tool_calls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'one\nTWO\u202e\nthree\n' } }] },
  { text: 'not written' },
];

let root: string;
let fake: FakeOpenAIServer;
let server: ChildProcess;
let url: string;
let loginUrl: string;
let browser: Browser;
const errors: string[] = [];

async function startServe(port = 0): Promise<void> {
  server = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--open'], {
    cwd: join(root, 'ws'),
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: root, CODEWHALE_HOME: join(root, 'home'), CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: API_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  server.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const link = /^web: (\S+) \(one-time login link\)$/m.exec(out);
      if (link) {
        clearTimeout(timer);
        url = out.split('\n')[0]!.trim();
        loginUrl = link[1]!;
        resolve();
      }
    });
    server.once('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  if (!existsSync(CLI)) throw new Error('build the CLI first (pnpm build)');
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-web-e2e-')));
  for (const d of ['home', 'ws', 'scripts']) mkdirSync(join(root, d), { recursive: true });
  mkdirSync(SHOTS, { recursive: true });
  const gate = join(root, 'scripts', 'gate.sh');
  writeFileSync(gate, `#!/bin/sh\ncase "$DEEPSEEK_TOOL_ARGS" in *needs-ask*) echo '{"decision":"ask","reason":"please confirm it"}';; esac\n`);
  chmodSync(gate, 0o755);
  fake = await startFakeOpenAIServer({ turns: TURNS });
  writeFileSync(
    join(root, 'home', 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[hooks]\n[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "${gate}"\n`,
  );
  await startServe();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function newPage(options: { width?: number; dark?: boolean; context?: BrowserContext } = {}): Promise<Page> {
  const context = options.context ?? (await browser.newContext({ viewport: { width: options.width ?? 1440, height: 900 }, colorScheme: options.dark ? 'dark' : 'light' }));
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return page;
}

async function logIn(page: Page): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Token').fill(TOKEN);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Threads' }).waitFor();
}

async function axe(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const api = async (path: string, init: RequestInit = {}) => fetch(url + path, { ...init, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe('the web client in a real browser', () => {
  it('refuses a wrong token, then logs in; the one-time link works once', async () => {
    const page = await newPage();
    await page.goto(`${url}/`);
    const csp = (await page.request.get(`${url}/`)).headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await page.screenshot({ path: join(SHOTS, 'login.png') });
    await page.getByLabel('Token').fill('not-the-token-at-all');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not right');
    expect(await page.context().cookies()).toEqual([]);
    expect(await axe(page)).toEqual([]);
    // The failed checks (401s) are the only console errors so far.
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    errors.length = 0;

    // The one-time link logs a fresh browser in, once.
    const once = await newPage();
    await once.goto(loginUrl);
    await once.getByRole('navigation', { name: 'Threads' }).waitFor();
    const cookie = (await once.context().cookies()).find((c) => c.name === 'codewhale_runtime_token')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(await once.evaluate(() => document.cookie)).toBe('');
    expect(once.url()).not.toContain('login=');
    const twice = await newPage();
    await twice.goto(loginUrl);
    await expect.poll(() => twice.getByRole('alert').textContent()).toContain('did not work');
    await twice.getByLabel('Token').waitFor();
    errors.length = 0;
    await once.context().close();
    await twice.context().close();
    await page.context().close();
  });

  it('creates a thread, streams a gated tool call with its decision record, and answers the hook from the page by keyboard', async () => {
    const page = await newPage();
    await logIn(page);
    await page.getByLabel('Posture').selectOption('ask');
    await page.getByRole('button', { name: 'New thread' }).click();
    await page.getByRole('heading', { level: 1, name: join(root, 'ws') }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('run the gated command');
    await page.getByRole('textbox', { name: 'Message' }).press('Control+Enter');

    // The approval card: the hook's name and reason, the exact command.
    const card = page.locator('section.approval');
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('gate');
    expect(await card.textContent()).toContain('please confirm it');
    expect(await card.locator('pre.command').textContent()).toContain('echo needs-ask; echo ran-it');
    await expect.poll(() => page.title()).toMatch(/^\(1\) waiting for approval/);
    await page.screenshot({ path: join(SHOTS, 'approval.png') });
    expect(await axe(page)).toEqual([]);

    // Keyboard only: Tab to "Allow once" and press Enter.
    await page.locator('body').focus();
    for (let i = 0; i < 80 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Allow once'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });

    // The tool ran: output, exit code, and the decision record with the hook that asked.
    const tool = page.locator('li.tool');
    await expect.poll(() => tool.locator('.badge').first().textContent(), { timeout: 20_000 }).toBe('completed');
    expect(await tool.textContent()).toContain('ran-it');
    expect(await tool.textContent()).toContain('exit 0');
    const decision = tool.locator('details.decision');
    expect(await decision.textContent()).toContain('gate');
    expect(await decision.textContent()).toContain('ask');
    expect(await decision.textContent()).toContain('Hook-set digest');

    // The reply: Markdown as elements, the model's HTML as text, the bidi control shown escaped.
    const agent = page.locator('li.agent').last();
    await expect.poll(() => agent.textContent(), { timeout: 20_000 }).toContain('evil');
    expect(await agent.locator('strong').textContent()).toBe('done');
    expect(await agent.locator('img').count()).toBe(0);
    expect(await agent.textContent()).toContain('<img src=x');
    expect(await agent.locator('a').count()).toBe(0);
    expect(await agent.textContent()).toContain('<U+202E>');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect.poll(() => page.title()).toBe('Codewhale');

    // The thread's live hooks.
    await page.getByRole('button', { name: 'Hooks' }).click();
    const hooks = page.getByRole('region', { name: 'Live hooks' });
    await expect.poll(() => hooks.textContent()).toContain('tool_call_before');
    expect(await hooks.textContent()).toContain('gate');
    await page.screenshot({ path: join(SHOTS, 'thread.png') });
    expect(await axe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('drops an approval another client answered, on every open page', async () => {
    const a = await newPage();
    await logIn(a);
    const b = await newPage({ width: 375, dark: true });
    await logIn(b);
    const { thread } = await (await api('/v1/threads', { method: 'POST', body: JSON.stringify({ posture: 'ask' }) })).json();
    await a.goto(`${url}/#/t/${thread.id}`);
    await b.goto(`${url}/#/t/${thread.id}`);
    await api(`/v1/threads/${thread.id}/turns`, { method: 'POST', body: JSON.stringify({ prompt: 'second' }) });
    await a.locator('section.approval').waitFor();
    await b.locator('section.approval').waitFor();
    await b.screenshot({ path: join(SHOTS, 'approval-phone-dark.png'), fullPage: true });
    expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(b)).toEqual([]);
    const { approvals } = await (await api('/v1/approvals?status=pending')).json();
    expect(approvals).toHaveLength(1);
    expect((await api(`/v1/approvals/${approvals[0].id}`, { method: 'POST', body: JSON.stringify({ decision: 'allow' }) })).status).toBe(200);
    await a.locator('section.approval').waitFor({ state: 'detached' });
    await b.locator('section.approval').waitFor({ state: 'detached' });
    await expect.poll(() => a.locator('li.agent .bubble').last().textContent(), { timeout: 20_000 }).toContain('second done');
    expect(errors).toEqual([]);
    await a.context().close();
    await b.context().close();
  });

  it('loses and repeats nothing when the page reloads mid-stream', async () => {
    const page = await newPage({ dark: true });
    await logIn(page);
    const { thread } = await (await api('/v1/threads', { method: 'POST', body: JSON.stringify({ posture: 'ask' }) })).json();
    await page.goto(`${url}/#/t/${thread.id}`);
    await page.getByRole('textbox', { name: 'Message' }).fill('a long answer');
    await page.getByRole('button', { name: 'Send' }).click();
    const agent = page.locator('li.agent .bubble');
    await expect.poll(() => agent.textContent(), { timeout: 20_000 }).toContain('word5');
    expect(await agent.textContent()).not.toContain('word59');
    await page.reload();
    await expect.poll(() => page.locator('li.agent .bubble').textContent(), { timeout: 30_000 }).toContain('word59');
    expect((await page.locator('li.agent .bubble').textContent())!.trim()).toBe(LONG_REPLY);
    await page.screenshot({ path: join(SHOTS, 'threads-dark.png') });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('resumes the stream after the connection drops (the server restarts) with nothing lost or repeated', async () => {
    const page = await newPage();
    await logIn(page);
    const { thread } = await (await api('/v1/threads', { method: 'POST', body: JSON.stringify({ posture: 'ask' }) })).json();
    await page.goto(`${url}/#/t/${thread.id}`);
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor();
    const port = new URL(url).port;
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
    await expect.poll(() => page.getByRole('status').textContent()).toContain('reconnecting');
    await startServe(Number(port));
    await api(`/v1/threads/${thread.id}/turns`, { method: 'POST', body: JSON.stringify({ prompt: 'after' }) });
    await expect.poll(() => page.locator('li.agent .bubble').textContent(), { timeout: 20_000 }).toContain('after the restart');
    expect(await page.locator('li.user').count()).toBe(1);
    expect(await page.locator('li.agent').count()).toBe(1);
    expect(errors.filter((e) => !e.includes('ERR_CONNECTION_REFUSED') && !e.includes('Failed to fetch'))).toEqual([]);
    errors.length = 0;
    await page.context().close();
  });

  it('refuses a cross-site request that carries the session cookie', async () => {
    const page = await newPage();
    await logIn(page);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'codewhale_runtime_token')!;
    const pair = `${cookie.name}=${cookie.value}`;
    const post = (headers: Record<string, string>) => fetch(`${url}/v1/threads`, { method: 'POST', headers: { cookie: pair, 'content-type': 'application/json', ...headers }, body: '{}' });
    expect((await post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post({ origin: url, 'content-type': 'text/plain' })).status).toBe(403);
    expect((await fetch(`${url}/v1/threads`, { headers: { cookie: pair, 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    // The page itself, same origin, may.
    expect((await post({ origin: url })).status).toBe(201);
    await page.context().close();
  });

  it('answers "Always" from the card: the rule it names is written, and the next identical call runs without asking', async () => {
    const page = await newPage();
    await logIn(page);
    const { thread } = await (await api('/v1/threads', { method: 'POST', body: JSON.stringify({ posture: 'ask' }) })).json();
    await page.goto(`${url}/#/t/${thread.id}`);
    await api(`/v1/threads/${thread.id}/turns`, { method: 'POST', body: JSON.stringify({ prompt: 'always' }) });
    const card = page.locator('section.approval');
    await card.waitFor();
    // What exactly will be remembered, before anything is.
    const remembered = await card.locator('p.always').textContent();
    expect(remembered).toContain('permissions.toml');
    expect(remembered).toContain('echo always-ok');
    expect(remembered).toContain(join(root, 'ws'));
    expect(existsSync(join(root, 'home', 'permissions.toml'))).toBe(false);
    expect(await axe(page)).toEqual([]);
    await card.getByRole('button', { name: 'Always' }).click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('li.agent .bubble').last().textContent(), { timeout: 20_000 }).toContain('always one');
    expect(readFileSync(join(root, 'home', 'permissions.toml'), 'utf8')).toContain('command = "echo always-ok"');

    await api(`/v1/threads/${thread.id}/turns`, { method: 'POST', body: JSON.stringify({ prompt: 'again' }) });
    await expect.poll(() => page.locator('li.agent .bubble').last().textContent(), { timeout: 20_000 }).toContain('always two');
    expect(await page.locator('li.tool').count()).toBe(2);
    const { approvals } = await (await api(`/v1/approvals?thread_id=${thread.id}`)).json();
    expect(approvals.map((a: { scope: string }) => a.scope)).toEqual(['always']);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("answers the model's question from the page by keyboard; the other open page drops it", async () => {
    const a = await newPage();
    await logIn(a);
    const b = await newPage({ width: 375, dark: true });
    await logIn(b);
    const { thread } = await (await api('/v1/threads', { method: 'POST', body: JSON.stringify({ posture: 'ask' }) })).json();
    await a.goto(`${url}/#/t/${thread.id}`);
    await b.goto(`${url}/#/t/${thread.id}`);
    await api(`/v1/threads/${thread.id}/turns`, { method: 'POST', body: JSON.stringify({ prompt: 'ask me' }) });
    const card = a.locator('form.question');
    await card.waitFor();
    await b.locator('form.question').waitFor();
    expect(await card.getByRole('group').textContent()).toContain('Which language?');
    expect(await card.getByRole('radio', { name: /Rust/ }).count()).toBe(1);
    expect(await card.getByRole('button', { name: 'Answer' }).isDisabled()).toBe(true);
    await expect.poll(() => a.title()).toMatch(/waiting for an answer/);
    await a.screenshot({ path: join(SHOTS, 'question.png') });
    expect(await axe(a)).toEqual([]);
    expect(await axe(b)).toEqual([]);
    expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Keyboard only: to the first option, arrow to the second, then to the button.
    await card.getByRole('radio', { name: 'TypeScript' }).focus();
    await a.keyboard.press('ArrowDown');
    expect(await card.getByRole('radio', { name: /Rust/ }).isChecked()).toBe(true);
    for (let i = 0; i < 10 && (await a.evaluate(() => document.activeElement?.textContent)) !== 'Answer'; i++) await a.keyboard.press('Tab');
    await a.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    await b.locator('form.question').waitFor({ state: 'detached' });
    await expect.poll(() => a.locator('li.agent .bubble').last().textContent(), { timeout: 20_000 }).toContain('answered');
    const { user_inputs } = await (await api(`/v1/user-inputs?thread_id=${thread.id}`)).json();
    expect(user_inputs[0]).toMatchObject({ status: 'answered', answers: { lang: 'Rust' } });
    expect(errors).toEqual([]);
    await a.context().close();
    await b.context().close();
  });

  it('shows a write as the diff it would make, as text, with the invisible character marked', async () => {
    writeFileSync(join(root, 'ws', 'notes.txt'), 'one\ntwo\nthree\n');
    const page = await newPage();
    await logIn(page);
    const { thread } = await (await api('/v1/threads', { method: 'POST', body: JSON.stringify({ posture: 'ask' }) })).json();
    await page.goto(`${url}/#/t/${thread.id}`);
    await api(`/v1/threads/${thread.id}/turns`, { method: 'POST', body: JSON.stringify({ prompt: 'write it' }) });
    const card = page.locator('section.approval');
    await card.waitFor();
    const diff = card.locator('pre.diff');
    await diff.waitFor();
    expect(await card.locator('figcaption').textContent()).toContain('notes.txt');
    expect(await diff.locator('.dl-hunk').allTextContents()).toEqual(['@@ -1,3 +1,3 @@\n']);
    expect(await diff.locator('.dl-del').allTextContents()).toEqual(['-two\n']);
    expect(await diff.locator('.dl-add').allTextContents()).toEqual(['+TWO<U+202E>\n']);
    expect(await diff.evaluate((el) => el.textContent!.includes('\u202e'))).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'approval-diff.png') });
    expect(await axe(page)).toEqual([]);
    await card.getByRole('button', { name: 'Deny' }).click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('li.agent .bubble').last().textContent(), { timeout: 20_000 }).toContain('not written');
    expect(readFileSync(join(root, 'ws', 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
