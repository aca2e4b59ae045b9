import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { FakeHost } from '../../test/fake-host.js';
import { TuiController } from '../tui-controller.js';
import { TuiStore } from '../tui-store.js';
import { App } from './app.js';
import { TrustPrompt, type TrustChoice } from './trust-prompt.js';

const tick = () => new Promise((r) => setImmediate(r));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function mount() {
  const host = new FakeHost();
  const store = new TuiStore();
  const exits: number[] = [];
  const controller = new TuiController({ host, store, workspace: '/ws', onExit: (c) => exits.push(c) });
  const ui = render(<App host={host} store={store} controller={controller} rows={20} />);
  return { host, store, controller, ui, exits };
}

describe('App', () => {
  it('shows the composer and the status line; typed keys reach the composer', async () => {
    const { ui } = mount();
    await tick();
    expect(ui.lastFrame()).toMatch(/idle · Work · Ask · replay-model/);
    ui.stdin.write('hi');
    await tick();
    expect(ui.lastFrame()).toMatch(/❯ hi/);
    ui.unmount();
  });

  it('streams text in a bounded live region and moves finished items into the transcript', async () => {
    const { host, ui } = mount();
    await tick();
    host.emit({ type: 'text_delta', text: Array.from({ length: 100 }, (_, i) => `row ${i}`).join('\n') });
    await sleep(80); // one stream frame
    const frame = ui.lastFrame()!;
    // Finished lines are printed (all of them, once); the line in progress is live, above the composer.
    for (let i = 0; i < 100; i++) expect(frame.split('\n').filter((l) => l === `row ${i}`)).toHaveLength(1);
    expect(frame).toMatch(/row 98\nrow 99\n❯/);
    host.emit({ type: 'tool_call_started', id: 'c1', name: 'bash', input: { command: 'ls' } });
    await tick();
    expect(ui.frames.join('\n')).toMatch(/▸ #1 bash: ls/);
    ui.unmount();
  });

  it('the approval modal replaces the composer and answers with y', async () => {
    const { store, ui } = mount();
    await tick();
    const p = store.interaction().approve({ id: 'a', callId: 'c', tool: 'bash', input: {}, reason: 'posture', summary: 'bash: rm -rf build' }, new AbortController().signal);
    await tick();
    expect(ui.lastFrame()).toMatch(/Approve this tool call\?/);
    expect(ui.lastFrame()).toMatch(/bash: rm -rf build/);
    expect(ui.lastFrame()).toMatch(/y allow once · a allow for this session/);
    ui.stdin.write('y');
    expect(await p).toBe('allow');
    ui.unmount();
  });

  it('shows the slash-command completion menu', async () => {
    const { ui } = mount();
    await tick();
    ui.stdin.write('/h');
    await tick();
    expect(ui.lastFrame()).toMatch(/› \/help/);
    expect(ui.lastFrame()).toMatch(/\/hooks/);
    ui.unmount();
  });

  it('a running hook shows `name (i/n)` only after 300 ms', async () => {
    const { host, ui } = mount();
    await tick();
    host.update({ activeHook: { event: 'message_submit', label: 'lint\x1b[2J', index: 1, total: 2, startedAt: Date.now() }, busy: true });
    await tick();
    expect(ui.lastFrame()).not.toMatch(/lint/);
    // Poll (the machine may be slow): the row appears once the hook has run 300 ms.
    for (let i = 0; i < 60 && !/lint/.test(ui.lastFrame()!); i++) await sleep(50);
    expect(ui.lastFrame()).toMatch(/message_submit hook lint\[2J \(1\/2\)/);
    ui.unmount();
  });

  it('toasts are separate from the status line', async () => {
    const { host, ui } = mount();
    await tick();
    host.emit({ type: 'notice', notice: { level: 'error', message: 'hook observer queue full', durationMs: 12_000 } });
    host.update({ busy: true });
    await tick();
    expect(ui.lastFrame()).toMatch(/hook observer queue full/);
    expect(ui.lastFrame()).toMatch(/working/);
    ui.unmount();
  });
});

describe('TrustPrompt', () => {
  it('waits for an explicit key and names pending project hooks', async () => {
    const choices: TrustChoice[] = [];
    const ui = render(<TrustPrompt gate={{ workspace: '/ws', projectHooks: 'pending' }} onChoice={(c) => choices.push(c)} />);
    await tick();
    expect(ui.lastFrame()).toMatch(/pending approval/);
    expect(ui.lastFrame()).toMatch(/\/hooks review/);
    ui.stdin.write('\r');
    ui.stdin.write('x');
    await tick();
    expect(choices).toEqual([]);
    ui.stdin.write('2');
    await tick();
    expect(choices).toEqual(['untrusted']);
    ui.unmount();
  });
});
