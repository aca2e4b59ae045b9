import { describe, expect, it } from 'vitest';
import { FakeHost } from '../test/fake-host.js';
import { decodeAll } from './input-decoder.js';
import { TuiController, QUIT_WINDOW_MS } from './tui-controller.js';
import { TuiStore } from './tui-store.js';

function setup(opts: { runCommand?: (argv: string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }> } = {}) {
  const host = new FakeHost();
  const store = new TuiStore();
  let now = 1_000;
  const exits: number[] = [];
  const c = new TuiController({ host, store, workspace: '/ws', onExit: (code) => exits.push(code), now: () => now, ...(opts.runCommand ? { runCommand: opts.runCommand } : {}) });
  const type = (...chunks: string[]) => decodeAll(chunks).forEach((k) => c.handleKey(k));
  const flush = () => new Promise((r) => setImmediate(r));
  const lines = () => store.getSnapshot().ui.items.flatMap((i) => i.lines);
  return { host, store, c, type, flush, lines, exits, tick: (ms: number) => (now += ms) };
}

describe('TuiController', () => {
  it('Enter submits when idle and queues while a turn runs', async () => {
    const t = setup();
    t.type('hello', '\r');
    await t.flush();
    t.host.update({ busy: true, state: 'in_progress' });
    t.type('next one', '\r');
    await t.flush();
    expect(t.host.calls).toEqual(['submit:hello', 'queue:next one']);
    expect(t.store.getSnapshot().composer.text).toBe('');
  });

  it('a paste is one message, not one submission per line', async () => {
    const t = setup();
    t.type('\x1b[200~line 1\nline 2\nline 3\x1b[201~');
    expect(t.host.calls).toEqual([]);
    t.type('\r');
    await t.flush();
    expect(t.host.calls).toEqual(['submit:line 1\nline 2\nline 3']);
  });

  it('a blocked message goes back to the composer', () => {
    const t = setup();
    t.host.emit({ type: 'message_blocked', source: 'fresh', original: 'deploy', reason: 'frozen' });
    expect(t.store.getSnapshot().composer.text).toBe('deploy');
  });

  it('Esc cancels a running turn; Tab cycles modes on an empty composer; Shift+Tab cycles postures', () => {
    const t = setup();
    t.type('\t');
    expect(t.host.getSnapshot().mode).toBe('operate');
    t.type('\x1b[Z', '\x1b[Z');
    expect(t.host.getSnapshot().posture).toBe('full_access');
    t.host.update({ busy: true });
    t.type('\x1b');
    expect(t.host.calls).toEqual(['mode:operate', 'posture:auto_review', 'posture:full_access', 'cancel']);
    // A posture change leaves a line in the transcript, Full Access highlighted.
    expect(t.lines().filter((l) => l.startsWith('posture:'))).toEqual(['posture: Auto-Review', 'posture: Full Access']);
    expect(t.store.getSnapshot().ui.items.find((i) => i.lines[0] === 'posture: Full Access')!.tone).toBe('warn');
  });

  it('the approval modal: y, a, n, Esc', async () => {
    const t = setup();
    const i = t.store.interaction();
    const sig = new AbortController().signal;
    const req = { id: 'a', callId: 'c', tool: 'bash', input: {}, reason: 'hook' as const, summary: 'bash: rm' };
    const results = [i.approve(req, sig), i.approve(req, sig), i.approve(req, sig), i.approve(req, sig)];
    t.type('y');
    t.type('a');
    t.type('n');
    t.type('\x1b');
    expect(await Promise.all(results)).toEqual(['allow', 'allow_session', 'deny', 'deny']);
  });

  it('a question modal: number keys pick options, typed text answers free-form', async () => {
    const t = setup();
    const q = t.store.interaction().askUser(
      {
        id: 'r',
        questions: [
          { id: 'color', header: 'Color', question: 'Which?', options: [{ label: 'red' }, { label: 'blue' }] },
          { id: 'name', header: 'Name', question: 'Name it', options: [] },
        ],
      },
      new AbortController().signal,
    );
    t.type('2');
    t.type('whale', '\r');
    expect(await q).toEqual({ color: 'blue', name: 'whale' });
  });

  it('slash commands: completion with Tab, /mode, /queue, /why, unknown with a suggestion', async () => {
    const t = setup();
    t.type('/mo');
    expect(t.c.menu().map((m) => m.name)).toEqual(['mode']);
    t.type('\t');
    expect(t.store.getSnapshot().composer.text).toBe('/mode ');
    t.type('plan', '\r');
    await t.flush();
    expect(t.host.getSnapshot().mode).toBe('plan');
    t.host.update({ queued: ['a', 'b'], queuedCount: 2 });
    t.type('/queue drop 1', '\r');
    await t.flush();
    expect(t.host.calls).toContain('dequeue:0');
    // Enter on an open menu takes the highlighted command when the typed text starts it...
    t.type('/que', '\r');
    await t.flush();
    expect(t.lines().slice(-2)).toEqual(['\u276f /queue', '1. b']);
    // ...and a mistyped name is reported with a suggestion, never run as another command.
    t.type('/hoks', '\r');
    await t.flush();
    expect(t.lines().slice(-2)).toEqual(['\u276f /hoks', 'unknown command /hoks \u2014 did you mean /hooks? (/help lists them)']);
    t.type('/why', '\r');
    await t.flush();
    expect(t.lines().at(-1)).toBe('no tool call yet');
  });

  it('a long tool output is cut to head and tail with a true count, and /expand shows all of it', async () => {
    const t = setup();
    const big = Array.from({ length: 500 }, (_, i) => `out ${i + 1}`).join('\n');
    t.host.emit({ type: 'tool_call_started', id: 'c1', name: 'bash', input: { command: 'seq' } });
    t.host.emit({
      type: 'tool_call_completed',
      outcome: { id: 'c1', name: 'bash', input: { command: 'seq' }, result: { content: big, success: true }, error: null, modelText: big, decision: null, receipt: null, durationMs: 3 } as never,
    });
    const cut = t.lines();
    expect(cut).toContain('\u2713 #1 bash (3 ms) \u00b7 /expand 1');
    expect(cut).toContain('  \u2026 484 lines not shown \u2026');
    expect(cut.filter((l) => /^ {2}out \d+$/.test(l))).toHaveLength(16);
    t.type('/expand 1', '\r');
    await t.flush();
    const all = t.lines().slice(cut.length);
    expect(all.slice(0, 2)).toEqual(['\u276f /expand 1', '#1 bash, the whole output:']);
    expect(all.slice(2)).toEqual(big.split('\n'));
    t.type('/expand 7', '\r');
    await t.flush();
    expect(t.lines().at(-1)).toBe('no tool call #7 (1..1)');
  });

  it('/hooks runs the cli implementation with the workspace and shows its output', async () => {
    const seen: string[][] = [];
    const t = setup({ runCommand: async (argv) => (seen.push(argv), { exitCode: 0, stdout: 'tool_call_before\n  gate  30s\n', stderr: '' }) });
    t.type('/hooks', '\r');
    await t.flush();
    await t.flush();
    expect(seen).toEqual([['hooks', 'list', '--workspace', '/ws']]);
    // The command is echoed, then its output.
    expect(t.lines()).toEqual(['\u276f /hooks', 'tool_call_before', '  gate  30s']);
  });

  it("the cli's hints name the UI's own command (`/hooks approve`, not `codewhale hooks approve`)", async () => {
    const t = setup({
      runCommand: async () => ({
        exitCode: 0,
        stdout:
          'To run these exact bytes from the next session on: codewhale hooks approve 3f9a\nhint: run `codewhale hooks review` first\n  - status: pending approval \u2014 not loaded; review with `hooks review`, then `hooks approve <digest>`\n',
        stderr: '',
      }),
    });
    t.type('/hooks review', '\r');
    await t.flush();
    expect(t.lines().slice(1)).toEqual([
      'To run these exact bytes from the next session on: /hooks approve 3f9a',
      'hint: run `/hooks review` first',
      '  - status: pending approval \u2014 not loaded; review with `/hooks review`, then `/hooks approve <digest>`',
    ]);
  });

  it('/hooks events runs without --workspace (the cli command takes none); the others get it', async () => {
    const seen: string[][] = [];
    const t = setup({ runCommand: async (argv) => (seen.push(argv), { exitCode: 0, stdout: 'session_start\n', stderr: '' }) });
    t.type('/hooks events', '\r');
    await t.flush();
    t.type('/hooks review', '\r');
    await t.flush();
    expect(seen).toEqual([
      ['hooks', 'events'],
      ['hooks', 'review', '--workspace', '/ws'],
    ]);
  });

  it('Ctrl-C twice quits through end(); once only warns', async () => {
    const t = setup();
    t.type('\x03');
    await t.flush();
    expect(t.exits).toEqual([]);
    // The hint lasts exactly as long as the window in which a second Ctrl-C quits.
    const hint = t.store.getSnapshot().ui.toasts.find((x) => /Ctrl-C again/.test(x.message))!;
    expect(hint.expiresAt).toBe(1_000 + QUIT_WINDOW_MS);
    t.tick(QUIT_WINDOW_MS + 1);
    t.type('\x03');
    await t.flush();
    expect(t.exits).toEqual([]);
    expect(t.host.calls).toEqual([]);
    t.tick(100);
    t.type('\x03');
    await t.flush();
    expect(t.host.calls).toEqual(['end']);
    expect(t.exits).toEqual([0]);
  });

  it('Ctrl-D on an empty composer quits; /quit too, idempotent', async () => {
    const t = setup();
    t.type('\x04');
    t.type('/quit', '\r');
    await t.c.quit();
    expect(t.host.calls.filter((c) => c === 'end')).toHaveLength(1);
    expect(t.exits).toEqual([0]);
  });

  it('/steer adds to the running turn; /trust on|off switches session trust on the host', async () => {
    const t = setup();
    t.type('/steer also check the docs', '\r');
    await t.flush();
    expect(t.host.calls).toEqual(['steer:also check the docs']);
    t.type('/trust on', '\r');
    await t.flush();
    expect(t.host.calls).toContain('trust:on');
    expect(t.host.getSnapshot().sessionTrust).toBe(true);
    expect(t.lines().join(' ')).toMatch(/session trust: on — file tools may read and write outside the workspace/);
    t.type('/trust off', '\r');
    await t.flush();
    expect(t.host.calls).toContain('trust:off');
    expect(t.host.getSnapshot().sessionTrust).toBe(false);
  });

  it('/reload shows what the host reports', async () => {
    const t = setup();
    t.host.reloadReport = { changed: true, hookCount: 3, notes: ['project hooks changed since approval: run /hooks review'] };
    t.type('/reload', '\r');
    await t.flush();
    expect(t.lines()).toEqual(['\u276f /reload', 'configuration reloaded: 3 hooks (changed)', '  project hooks changed since approval: run /hooks review']);
  });

  it('/reload of a broken configuration says it was not reloaded, and never that it was', async () => {
    const t = setup();
    t.host.reloadReport = { changed: false, failed: true, hookCount: 2, notes: ['the configuration was not reloaded: config.toml:3: expected "]"'] };
    t.type('/reload', '\r');
    await t.flush();
    expect(t.lines()).toEqual(['\u276f /reload', 'configuration not reloaded: the 2 hooks loaded before stay', '  the configuration was not reloaded: config.toml:3: expected "]"']);
    expect(t.lines().join('\n')).not.toMatch(/configuration reloaded/);
  });
});
