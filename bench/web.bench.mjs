// web: how long an event takes from its commit (the stored `created_at`) to its element in the
// web client's page (Debian's Chromium, headless, driven by playwright-core), against the same
// events' commit → receipt on a plain SSE client (the baseline) in the same run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer } from '@codewhale/engine/testing';
import { chromium } from 'playwright-core';
import { round, sseEnvelopes } from './util.mjs';

const TURNS = 40;
const TOKEN = 'bench-web-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const CHROMIUM = process.env.CODEWHALE_CHROMIUM ?? '/usr/bin/chromium';
const CLI = fileURLToPath(new URL('../packages/cli/dist/bin.cjs', import.meta.url));
const WEB = fileURLToPath(new URL('../packages/cli/dist/web', import.meta.url));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

export async function run() {
  if (!existsSync(CHROMIUM) || !existsSync(join(WEB, 'index.html'))) return [{ name: 'web: skipped', value: 0, unit: '', note: `needs ${CHROMIUM} and a built CLI` }];
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-bench-web-')));
  // `codewhale serve` in its own process: the browser, started here, is then no descendant of it
  // (the server refuses processes it started), as with a real user's browser.
  const fake = await startFakeOpenAIServer({ turns: Array.from({ length: TURNS }, (_, i) => ({ text: `reply ${i}` })) });
  mkdirSync(join(root, 'home'));
  writeFileSync(join(root, 'home', 'config.toml'), `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n`);
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--open'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, CODEWHALE_HOME: join(root, 'home'), CODEWHALE_RUNTIME_TOKEN: TOKEN, FAKE_API_KEY: 'sk-bench' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const server = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const link = /^web: (\S+) \(one-time login link\)$/m.exec(out);
      if (link) resolve({ url: out.split('\n')[0].trim(), login: link[1] });
    });
    child.once('exit', () => reject(new Error('codewhale serve exited')));
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
  const stop = new AbortController();
  try {
    const page = await browser.newPage();
    await page.goto(server.login);
    await page.getByRole('navigation', { name: 'Threads' }).waitFor();
    const { thread } = await (await fetch(`${server.url}/v1/threads`, { method: 'POST', headers: H, body: '{}' })).json();
    await page.goto(`${server.url}/#/t/${thread.id}`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    // The page notes when each item's element appears.
    await page.evaluate(() => {
      window.__seen = {};
      new MutationObserver(() => {
        for (const li of document.querySelectorAll('li[data-item]')) window.__seen[li.dataset.item] ??= Date.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    // The baseline: a plain SSE client on the global stream.
    const created = new Map();
    const received = new Map();
    const completed = [];
    const { head_seq } = await (await fetch(`${server.url}/v1/event-log?limit=1`, { headers: H })).json();
    void (async () => {
      const res = await fetch(`${server.url}/v1/events`, { headers: { ...H, 'last-event-id': String(head_seq) }, signal: stop.signal });
      for await (const { envelope: env } of sseEnvelopes(res)) {
        if (env.event === 'item.started') {
          created.set(env.item_id, Date.parse(env.created_at));
          received.set(env.item_id, Date.now());
        }
        if (env.event === 'turn.completed') completed.push(env.payload.turn.id);
      }
    })().catch(() => {});
    for (let i = 0; i < TURNS; i++) {
      const { turn } = await (await fetch(`${server.url}/v1/threads/${thread.id}/turns`, { method: 'POST', headers: H, body: JSON.stringify({ prompt: `say ${i}` }) })).json();
      while (!completed.includes(turn.id)) await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 300));
    const seen = await page.evaluate(() => window.__seen);
    const inPage = [];
    const sse = [];
    for (const [id, at] of created) {
      sse.push(received.get(id) - at);
      if (seen[id] !== undefined) inPage.push(seen[id] - at);
    }
    inPage.sort((a, b) => a - b);
    sse.sort((a, b) => a - b);
    const note = `${inPage.length} of ${created.size} items, ${TURNS} turns`;
    return [
      { name: 'web: event commit → SSE client p50 (baseline)', value: pct(sse, 0.5), unit: 'ms', note },
      { name: 'web: event commit → SSE client p99 (baseline)', value: pct(sse, 0.99), unit: 'ms', note },
      { name: 'web: event commit → element in the page p50', value: pct(inPage, 0.5), unit: 'ms', note: `${round(pct(inPage, 0.5) / Math.max(pct(sse, 0.5), 1), 1)}× SSE (${note})` },
      { name: 'web: event commit → element in the page p99', value: pct(inPage, 0.99), unit: 'ms', note: `${round(pct(inPage, 0.99) / Math.max(pct(sse, 0.99), 1), 1)}× SSE` },
    ];
  } finally {
    stop.abort();
    await browser.close();
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}
