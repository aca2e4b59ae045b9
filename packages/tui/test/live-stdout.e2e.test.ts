/**
 * The live region and a resize, in a real terminal (tmux, which re-wraps its lines when it
 * narrows, as most terminals do). `fixtures/resize-race.mjs` draws the built Screen, and makes
 * certain that the text of a new frame arrives after the terminal has narrowed but before the
 * process has handled the resize (on a busy machine this happens by itself). What
 * must hold whatever that timing: the rows the narrowed terminal re-wrapped are all erased, so
 * nothing of the frame on screen is left behind, and nothing above it is erased.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { requireTmux, Terminal } from './tmux.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(HERE, 'fixtures', 'resize-race.mjs');
const DIST = join(HERE, '..', 'dist', 'index.js');

let cleanup: (() => void) | null = null;
beforeAll(() => {
  requireTmux();
  if (!existsSync(DIST)) throw new Error(`build first: ${DIST} is missing (pnpm --filter @codewhale/tui build)`);
});
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

it('a frame whose text arrives after the terminal narrowed, before the resize is handled, leaves no row behind and erases nothing above', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-race-')));
  const term = new Terminal('race', root);
  cleanup = () => {
    term.kill();
    rmSync(root, { recursive: true, force: true });
  };
  // About five rows of a 60-column live region, each nearly as wide as it: two rows each at 30.
  const words = Array.from({ length: 48 }, (_, k) => `word${String(k).padStart(2, '0')}`);
  const done = join(root, 'done');
  term.start([], {
    cwd: root,
    script: SCRIPT,
    cols: 60,
    rows: 20,
    env: {
      HOME: root,
      RACE_HEAD: `RACE-START ${words.slice(0, 40).join(' ')}`,
      RACE_TAIL: ` ${words.slice(40).join(' ')} RACE-END`,
      RACE_RESIZE: JSON.stringify(term.command('resize-window', '-t', 'race', '-x', '30', '-y', '20')),
      RACE_WIDTH: JSON.stringify(term.command('display-message', '-p', '-t', 'race', '#{pane_width}')),
      RACE_DONE: done,
    },
  });
  for (let i = 0; i < 400 && !existsSync(done); i++) await new Promise((r) => setTimeout(r, 100));
  const all = term.everything();
  expect(existsSync(done), all).toBe(true);
  // Frame 2 was laid out after the terminal narrowed and before the process knew.
  expect(JSON.parse(readFileSync(done, 'utf8'))).toEqual({ raceHit: true });
  // Nothing above the live region was erased: every line of the transcript is there, once.
  for (let i = 1; i <= 6; i++) expect(all.split(`KEEP-${i} of the transcript`).length - 1, all).toBe(1);
  // Nothing of the frame on screen was left behind: every word of the paragraph once, one status line.
  for (const w of ['RACE-START', ...words, 'RACE-END']) expect(all.split(w).length - 1, `${w} in:\n${all}`).toBe(1);
  expect(all.match(/working \(Esc to cancel\)/g) ?? [], all).toHaveLength(1);
}, 60_000);
