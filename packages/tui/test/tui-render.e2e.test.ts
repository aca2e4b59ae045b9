/**
 * Rendering through a real terminal: tmux runs the built binary against a real streaming
 * HTTP model server, `pipe-pane` records every byte the program writes, and the screen plus
 * scrollback is read back. Finished text must land in the terminal's own scrollback whole,
 * the screen must never be cleared (`ESC[2J`, `ESC[3J`), and the live region must never leak
 * into the scrollback.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireTmux, Terminal } from './tmux.js';

const CLEAR = /\x1b\[[23]J/g;

interface Rig {
  readonly term: Terminal;
  readonly fake: FakeOpenAIServer;
  readonly root: string;
}
const rigs: Rig[] = [];

async function open(turns: FakeTurn[], cols: number, rows: number, chunkDelayMs = 1): Promise<Rig> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-render-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  const fake = await startFakeOpenAIServer({ turns, chunkDelayMs });
  writeFileSync(
    join(home, 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${fake.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[projects."${ws}"]\ntrust_level = "trusted"\n`,
  );
  const term = new Terminal(`render${rigs.length}`, root);
  const rig = { term, fake, root };
  rigs.push(rig);
  term.start([], { cwd: ws, env: { CODEWHALE_HOME: home, HOME: root, FAKE_API_KEY: 'sk-fake-render' }, cols, rows, record: true });
  await term.waitFor(/idle · Work · Ask/);
  await new Promise((r) => setTimeout(r, 150));
  return rig;
}

/** The text with all whitespace removed: wrapping may only add line breaks at spaces or between characters. */
const squash = (s: string) => s.replace(/\s+/g, '');

/** Paragraph `i` of a long answer: about 263 characters of words, with unique start and end markers. */
function paragraph(i: number): string {
  const n = String(i).padStart(2, '0');
  const words = Array.from({ length: 40 }, (_, k) => `w${n}x${k}`).join(' ');
  return `P${n}-START ${words} lorem ipsum dolor sit amet consectetur P${n}-END`;
}

/**
 * The turn is over and drawn: the status row says idle and no working row is left. Waited for
 * after the answer's last marker is on the screen, so an idle row from before the turn cannot
 * match.
 */
const SETTLED = /^(?![\s\S]*working \(Esc to cancel\))[\s\S]*○ idle/;

async function ask(term: Terminal, text: string): Promise<void> {
  term.type(text);
  term.key('Enter');
}

beforeAll(() => requireTmux());
afterEach(async () => {
  for (const r of rigs.splice(0)) {
    r.term.kill();
    await r.fake.close();
    rmSync(r.root, { recursive: true, force: true });
  }
});

describe('the TUI in a real terminal: a long streamed answer', () => {
  it.each([
    [120, 40],
    [60, 20],
  ])(
    'at %ix%i: no clear sequence, every line of a 50-paragraph answer in screen plus scrollback, no live row left behind',
    async (cols, rows) => {
      const paras = Array.from({ length: 50 }, (_, i) => paragraph(i + 1));
      const answer = `${paras.join('\n\n')}\n\nEND-OF-ANSWER`;
      const { term } = await open([{ text: answer }], cols, rows);
      await ask(term, 'write a long answer');
      await term.waitFor(/END-OF-ANSWER/, 60_000);
      await term.waitFor(SETTLED, 30_000);
      const all = term.everything();
      const flat = squash(all);
      for (const p of paras) expect(flat).toContain(squash(p));
      expect(all).toMatch(/END-OF-ANSWER/);
      // In order, each once.
      const starts = paras.map((_, i) => flat.indexOf(`P${String(i + 1).padStart(2, '0')}-START`));
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      for (let i = 1; i <= 50; i++) expect(flat.split(`P${String(i).padStart(2, '0')}-END`).length - 1).toBe(1);
      // The live region never went into the scrollback: not the status line while working, nor
      // the frame from before the message was sent (its idle status line, the typed text).
      expect(all).not.toMatch(/working \(Esc to cancel\)/);
      expect(all.match(/○ idle · Work · Ask/g) ?? [], all).toHaveLength(1);
      expect(all.match(/write a long answer/g) ?? [], all).toHaveLength(1);
      expect(term.raw().match(CLEAR) ?? []).toEqual([]);
    },
    120_000,
  );

  it('a resize while streaming re-lays the live region only: no clear, no duplicated frame, every line kept', async () => {
    const paras = Array.from({ length: 30 }, (_, i) => paragraph(i + 1));
    const answer = `${paras.join('\n\n')}\n\nEND-OF-ANSWER`;
    const { term } = await open([{ text: answer }], 100, 30, 3);
    await ask(term, 'stream while I resize');
    await term.waitFor(/P05-END/, 30_000);
    term.resize(70, 24);
    await term.waitFor(/P12-END/, 30_000);
    term.resize(110, 30);
    await term.waitFor(/P20-END/, 30_000);
    term.resize(60, 20);
    await term.waitFor(/END-OF-ANSWER/, 60_000);
    await term.waitFor(SETTLED, 30_000);
    const all = term.everything();
    const flat = squash(all);
    for (const p of paras) expect(flat).toContain(squash(p));
    for (let i = 1; i <= 30; i++) expect(flat.split(`P${String(i).padStart(2, '0')}-END`).length - 1).toBe(1);
    // Every word once: no row of a frame drawn before a resize stayed on the screen.
    const words = all.match(/\bw\d\dx\d+\b/g) ?? [];
    expect(words.length).toBe(30 * 40);
    expect(new Set(words).size).toBe(words.length);
    expect(all).not.toMatch(/working \(Esc to cancel\)/);
    // One status line and one prompt: the frame drawn before each resize left nothing behind.
    expect(all.match(/○ idle · Work · Ask/g) ?? [], all).toHaveLength(1);
    expect(term.raw().match(CLEAR) ?? []).toEqual([]);
  }, 120_000);

  it('shows a 900-character line (wide characters and emoji included) and a 300-line answer whole', async () => {
    const words = Array.from({ length: 120 }, (_, k) => (k % 10 === 3 ? `漢字${k}` : k % 10 === 7 ? `🐳${k}` : `word${k}`));
    let long = 'LONG-START';
    for (const w of words) if (long.length < 880) long += ` ${w}`;
    long = `${long} LONG-END`.padEnd(900, 'z');
    const lines = Array.from({ length: 300 }, (_, i) => `line ${String(i + 1).padStart(3, '0')} of the answer`);
    const { term } = await open([{ text: long }, { text: `${lines.join('\n')}\nEND-300` }], 60, 20);
    await ask(term, 'one long line');
    await term.waitFor(/LONG-END/, 30_000);
    await term.waitFor(SETTLED, 30_000);
    await ask(term, 'three hundred lines');
    await term.waitFor(/END-300/, 60_000);
    await term.waitFor(SETTLED, 30_000);
    const all = term.everything();
    const flat = squash(all);
    expect(flat).toContain(squash(long));
    expect(long.length).toBe(900);
    for (const l of lines) expect(all).toContain(l);
    expect(all).not.toMatch(/not shown|…/);
    expect(term.raw().match(CLEAR) ?? []).toEqual([]);
  }, 120_000);
});
