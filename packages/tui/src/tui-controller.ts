import { parseMode, parsePosture, type HostEvent, type SessionHostApi } from '@codewhale/engine';
import { backspace, deleteForward, historyDown, historyUp, insertText, moveCursor, setText, takeSubmission, emptyComposer } from './composer.js';
import type { Key } from './input-decoder.js';
import { completeSlash, parseSlash, SLASH_COMMANDS } from './slash-commands.js';
import { decisionLines, OUTPUTS_KEPT, uiCommandHints } from './tui-state.js';
import type { AlwaysAllow, TuiStore } from './tui-store.js';
import { agentRows, modeLabel, nextMode, nextPosture, postureLabel } from './view-models.js';
import { oneLine } from './text-bounds.js';

/** Runs a `codewhale` command in-process with captured output (the cli's own implementation). */
export type RunCommand = (argv: string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>;

export interface ControllerOptions {
  readonly host: SessionHostApi;
  readonly store: TuiStore;
  readonly workspace: string;
  readonly configPath?: string;
  /** `codewhale hooks …` (and `trust`) run by the cli in-process. */
  readonly runCommand?: RunCommand;
  /** The "always" approval choice: write a typed permissions rule (absent: not offered). */
  readonly alwaysAllow?: AlwaysAllow;
  /** Called once the session has ended (after `session_end`). */
  readonly onExit: (code: number) => void;
  readonly now?: () => number;
}

/** Ctrl-C twice within this window quits. */
export const QUIT_WINDOW_MS = 2000;

/**
 * Turns keys into host verbs and store changes. It decides nothing about hooks: the host
 * fires them; this only translates what the person typed.
 */
export class TuiController {
  private readonly o: ControllerOptions;
  private ctrlCAt = -Infinity;
  private ending: Promise<void> | null = null;
  private readonly unsubscribe: () => void;
  private readonly now: () => number;

  constructor(o: ControllerOptions) {
    this.o = o;
    this.now = o.now ?? Date.now;
    this.unsubscribe = o.host.subscribe((e) => this.onHostEvent(e));
  }

  private get store(): TuiStore {
    return this.o.store;
  }

  private onHostEvent(e: HostEvent): void {
    if (e.type === 'snapshot') return;
    this.store.dispatch({ type: 'host', event: e, now: this.now() });
    // A blocked message goes back to the composer (unless the person already typed something new).
    if (e.type === 'message_blocked' && this.store.getSnapshot().composer.text === '') {
      this.store.patch({ composer: setText(this.store.getSnapshot().composer, e.original) });
    }
  }

  private info(text: string, tone: 'dim' | 'warn' | 'bad' | 'ok' = 'dim'): void {
    this.store.dispatch({ type: 'item', kind: 'output', text, tone });
  }

  private toast(level: 'error' | 'warning' | 'info', message: string): void {
    this.store.dispatch({ type: 'toast', level, message, now: this.now() });
  }

  /** Whether the approval modal offers "always" (a permissions-rule writer was given). */
  get canAlwaysAllow(): boolean {
    return this.o.alwaysAllow !== undefined;
  }

  /** Completion menu entries for the current composer text. */
  menu(): ReturnType<typeof completeSlash> {
    const snap = this.store.getSnapshot();
    if (snap.modals.length || snap.gate) return [];
    return completeSlash(snap.composer.text);
  }

  handleKey(key: Key): void {
    const snap = this.store.getSnapshot();
    if (snap.exiting) return;
    if (snap.gate) return; // the trust prompt has its own handler (runTui)
    const modal = snap.modals[0];
    if (modal) return this.handleModalKey(key);
    const c = snap.composer;
    const menu = this.menu();
    switch (key.kind) {
      case 'ctrl_c': {
        const t = this.now();
        if (t - this.ctrlCAt < QUIT_WINDOW_MS) return void this.quit();
        this.ctrlCAt = t;
        if (this.o.host.getSnapshot().busy) this.o.host.cancel();
        if (c.text) this.store.patch({ composer: setText(c, '') });
        // The hint lasts exactly as long as a second Ctrl-C would quit.
        this.store.dispatch({ type: 'toast', level: 'warning', message: 'press Ctrl-C again to quit', durationMs: QUIT_WINDOW_MS, now: t });
        return;
      }
      case 'ctrl_d':
        if (c.text === '') void this.quit();
        else this.store.patch({ composer: deleteForward(c) });
        return;
      case 'escape':
        if (menu.length && c.text.startsWith('/')) return this.store.patch({ composer: setText(c, '') });
        if (this.o.host.getSnapshot().busy) {
          this.o.host.cancel();
          this.toast('info', 'turn cancelled (queued messages stay queued)');
        }
        return;
      case 'tab':
        if (menu.length) return this.store.patch({ composer: setText(c, `/${menu[Math.min(snap.menuIndex, menu.length - 1)]!.name} `), menuIndex: 0 });
        if (c.text === '') this.setMode(nextMode(this.o.host.getSnapshot().mode));
        return;
      case 'shift_tab':
        this.setPosture(nextPosture(this.o.host.getSnapshot().posture));
        return;
      case 'up':
        if (menu.length) return this.store.patch({ menuIndex: (snap.menuIndex + menu.length - 1) % menu.length });
        return this.store.patch({ composer: historyUp(c) });
      case 'down':
        if (menu.length) return this.store.patch({ menuIndex: (snap.menuIndex + 1) % menu.length });
        return this.store.patch({ composer: historyDown(c) });
      case 'left':
      case 'right':
      case 'home':
      case 'end':
        return this.store.patch({ composer: moveCursor(c, key.kind) });
      case 'backspace':
        return this.store.patch({ composer: backspace(c), menuIndex: 0 });
      case 'delete':
        return this.store.patch({ composer: deleteForward(c) });
      case 'ctrl_u':
        return this.store.patch({ composer: setText(c, '') });
      case 'ctrl_o':
        return;
      case 'newline':
        return this.store.patch({ composer: insertText(c, '\n') });
      case 'paste':
      case 'text':
        if (key.text === '') return;
        return this.store.patch({ composer: insertText(c, key.text), menuIndex: 0 });
      case 'enter': {
        // A line ending in `\` continues on the next line.
        if (c.text.endsWith('\\') && c.cursor === c.text.length) return this.store.patch({ composer: insertText(backspace(c), '\n') });
        let text = c.text;
        // Enter on the menu takes the highlighted command when the typed text starts it (`/ho` →
        // `/hooks`); a mistyped name (`/hoks`) is reported, with a suggestion, never run as another command.
        const picked = menu.length ? menu[Math.min(snap.menuIndex, menu.length - 1)]! : null;
        if (picked && !SLASH_COMMANDS.some((x) => `/${x.name}` === text.trim()) && (snap.menuIndex > 0 || picked.name.startsWith(text.trim().slice(1).toLowerCase()))) text = `/${picked.name}`;
        if (text.trim() === '') return;
        const { state } = takeSubmission(setText(c, text));
        this.store.patch({ composer: state, menuIndex: 0 });
        void this.submit(text);
        return;
      }
    }
  }

  private handleModalKey(key: Key): void {
    const snap = this.store.getSnapshot();
    const modal = snap.modals[0]!;
    if (key.kind === 'ctrl_c') {
      this.store.settle(modal.id, modal.kind === 'approval' ? 'deny' : null);
      return;
    }
    if (modal.kind === 'approval') {
      const k = key.kind === 'text' ? key.text : key.kind === 'escape' ? 'esc' : '';
      if (k === 'y') this.store.settle(modal.id, 'allow');
      else if (k === 'a') this.store.settle(modal.id, 'allow_session');
      else if (k === 'n' || k === 'esc') this.store.settle(modal.id, 'deny');
      else if (k === 'A' && this.o.alwaysAllow) {
        const id = modal.id;
        this.o
          .alwaysAllow(modal.request)
          .then((where) => {
            this.info(`always allowed: ${oneLine(where, 300)}`, 'ok');
            // The rule applies in this session at once, not only from the next one: re-read it.
            this.reload();
            this.store.settle(id, 'allow');
          })
          .catch((e: unknown) => {
            this.toast('error', `could not write the permissions rule: ${e instanceof Error ? e.message : String(e)}`);
          });
      }
      return;
    }
    // A question: number keys pick an option; typed text + Enter answers free-form; Esc declines.
    const q = modal.request.questions.find((x) => !(x.id in snap.answers));
    if (!q) return this.store.settle(modal.id, snap.answers);
    if (key.kind === 'escape') return this.store.settle(modal.id, null);
    const c = snap.composer;
    if (key.kind === 'text' && /^[1-9]$/.test(key.text) && c.text === '') {
      const opt = q.options[Number(key.text) - 1];
      if (opt) return this.answer(modal.id, q.id, opt.label);
      return;
    }
    if (key.kind === 'enter') {
      if (c.text.trim() !== '' && (q.allowFreeText ?? true)) {
        const text = c.text;
        this.store.patch({ composer: emptyComposer(c.history) });
        return this.answer(modal.id, q.id, text);
      }
      return;
    }
    if (key.kind === 'text' || key.kind === 'paste') return this.store.patch({ composer: insertText(c, key.text) });
    if (key.kind === 'backspace') return this.store.patch({ composer: backspace(c) });
  }

  private answer(modalId: number, questionId: string, value: string): void {
    const snap = this.store.getSnapshot();
    const modal = snap.modals[0];
    if (!modal || modal.id !== modalId || modal.kind !== 'question') return;
    const answers = { ...snap.answers, [questionId]: value };
    if (modal.request.questions.every((x) => x.id in answers)) this.store.settle(modalId, answers);
    else this.store.patch({ answers });
  }

  setMode(mode: ReturnType<typeof nextMode>): void {
    try {
      this.o.host.setMode(mode);
    } catch (e) {
      this.toast('error', e instanceof Error ? e.message : String(e));
    }
  }

  setPosture(posture: ReturnType<typeof nextPosture>): void {
    try {
      this.o.host.setPosture(posture);
      this.info(`posture: ${postureLabel(posture)}`, posture === 'full_access' ? 'warn' : 'dim');
    } catch (e) {
      this.toast('error', e instanceof Error ? e.message : String(e));
    }
  }

  /** Submit composer text: a slash command, a queued message (a turn runs) or a fresh one. */
  async submit(text: string): Promise<void> {
    const p = parseSlash(text);
    if (p.kind === 'unknown') {
      this.store.dispatch({ type: 'item', kind: 'user', text: `\u276f ${oneLine(text.trim(), 300)}`, tone: 'dim' });
      return this.info(`unknown command /${oneLine(p.name, 40)}${p.suggestion ? ` \u2014 did you mean /${p.suggestion}?` : ''} (/help lists them)`, 'warn');
    }
    if (p.kind === 'command') {
      this.store.dispatch({ type: 'item', kind: 'user', text: `\u276f ${oneLine(text.trim(), 300)}`, tone: 'dim' });
      return this.command(p.name, p.args, p.rest);
    }
    const body = text.startsWith('//') ? text.slice(1) : text;
    const host = this.o.host;
    try {
      if (host.getSnapshot().busy) host.queue(body);
      else await host.submit(body);
    } catch (e) {
      this.store.dispatch({ type: 'item', kind: 'error', text: `error: ${e instanceof Error ? e.message : String(e)}`, tone: 'bad' });
    }
  }

  private async cli(argv: string[], scoped = true): Promise<void> {
    if (!this.o.runCommand) return this.info('this command needs the codewhale cli (run the TUI through `codewhale`)', 'warn');
    // `hooks events` lists the events and takes no workspace or config.
    const extra = scoped ? ['--workspace', this.o.workspace, ...(this.o.configPath ? ['--config', this.o.configPath] : [])] : [];
    try {
      const r = await this.o.runCommand([...argv, ...extra]);
      // The cli's hints name its own commands; inside the UI the same command is `/hooks …`.
      const out = uiCommandHints(`${r.stdout}${r.stderr}`.trimEnd());
      this.info(out || `(no output, exit ${r.exitCode})`, r.exitCode === 0 ? 'dim' : 'warn');
    } catch (e) {
      this.info(`error: ${e instanceof Error ? e.message : String(e)}`, 'bad');
    }
  }

  private async command(name: string, args: readonly string[], rest: string): Promise<void> {
    const host = this.o.host;
    const snap = host.getSnapshot();
    switch (name) {
      case 'help':
        return this.info(
          [
            'Keys: Enter send (queues while a turn runs) \u00b7 Ctrl-J or Alt-Enter or \\+Enter new line \u00b7 Up/Down history',
            '      Esc cancel the turn \u00b7 Tab mode (empty composer) \u00b7 Shift+Tab posture \u00b7 Ctrl-C twice or Ctrl-D quit',
            'Approvals: y allow once \u00b7 a allow for this session \u00b7 A always (writes a permissions rule) \u00b7 n or Esc deny',
            ...SLASH_COMMANDS.map((c) => `${c.usage.padEnd(52)} ${c.summary}`),
          ].join('\n'),
        );
      case 'hooks': {
        const sub = args[0] ?? 'list';
        if (!['list', 'ls', 'events', 'review', 'approve', 'revoke', 'test', 'validate'].includes(sub))
          return this.info(`usage: /hooks [list|events|review|approve <digest>|revoke|test …] (got \`${oneLine(sub, 40)}\`)`, 'warn');
        if (sub === 'events') return this.cli(['hooks', ...args], false);
        return this.cli(['hooks', ...(args.length ? args : ['list'])]);
      }
      case 'mode': {
        if (!args[0]) return this.info(`mode: ${modeLabel(snap.mode)} (/mode plan|work|operate)`);
        const m = parseMode(args[0]);
        if (!m) return this.info(`unknown mode \`${oneLine(args[0], 40)}\`: use plan, work or operate`, 'warn');
        return this.setMode(m);
      }
      case 'posture': {
        if (!args[0]) return this.info(`posture: ${postureLabel(snap.posture)} (/posture ask|auto|full)`);
        const p = parsePosture(args[0] === 'full' ? 'full-access' : args[0]);
        if (!p) return this.info(`unknown posture \`${oneLine(args[0], 40)}\`: use ask, auto or full`, 'warn');
        return this.setPosture(p);
      }
      case 'trust': {
        const sub = args[0] ?? 'status';
        if (sub === 'on' || sub === 'off') {
          host.setSessionTrust(sub === 'on');
          return this.info(
            sub === 'on'
              ? 'session trust: on — file tools may read and write outside the workspace until you quit or /trust off. Project hooks are unaffected: they need `/hooks review` and `/hooks approve <digest>`.'
              : 'session trust: off (file tools stay inside the workspace)',
          );
        }
        if (sub !== 'status') return this.info('usage: /trust on|off|status', 'warn');
        this.info(`session trust: ${snap.sessionTrust ? 'on (file tools may reach outside the workspace)' : 'off (file tools stay inside the workspace)'}`);
        return this.cli(['hooks', 'review']);
      }
      case 'agents':
        return this.info(agentRows(snap.subagents).join('\n'));
      case 'queue': {
        if (args[0] === 'clear') {
          const n = host.dequeue().length;
          return this.info(`dropped ${n} queued message${n === 1 ? '' : 's'}`);
        }
        if (args[0] === 'drop') {
          const i = Number(args[1]);
          if (!Number.isInteger(i) || i < 1 || i > snap.queued.length) return this.info(`usage: /queue drop <1..${snap.queued.length}>`, 'warn');
          host.dequeue(i - 1);
          return this.info(`dropped queued message ${i}`);
        }
        if (snap.queued.length === 0) return this.info('the queue is empty');
        return this.info(snap.queued.map((q, i) => `${i + 1}. ${oneLine(q, 120)}`).join('\n'));
      }
      case 'steer': {
        if (!rest.trim()) return this.info('usage: /steer <text>', 'warn');
        try {
          const r = await host.steer(rest.trim());
          if (r.kind === 'idle') return this.info('no turn is running: the text was sent as a new message');
        } catch (e) {
          this.info(`error: ${e instanceof Error ? e.message : String(e)}`, 'bad');
        }
        return;
      }
      case 'why': {
        const calls = this.store.getSnapshot().ui.calls;
        const n = args[0] ? Number(args[0].replace(/^#/, '')) : calls.length;
        const call = calls.find((c) => c.n === n);
        if (!call) return this.info(calls.length ? `no tool call #${oneLine(args[0] ?? '', 20)} (1..${calls.length})` : 'no tool call yet', 'warn');
        return this.info(decisionLines(call).join('\n'));
      }
      case 'expand': {
        const calls = this.store.getSnapshot().ui.calls;
        const n = args[0] ? Number(args[0].replace(/^#/, '')) : (calls.at(-1)?.n ?? 0);
        const call = calls.find((c) => c.n === n);
        if (!call) return this.info(calls.length ? `no tool call #${oneLine(args[0] ?? '', 20)} (1..${calls.length})` : 'no tool call yet', 'warn');
        if (call.output === null) {
          const old = calls.indexOf(call) < calls.length - OUTPUTS_KEPT;
          return this.info(
            `#${n} ${oneLine(call.tool, 64)}: ${old ? `its output is no longer kept (the last ${OUTPUTS_KEPT} calls keep theirs)` : 'it has no output (it did not run, or has not finished)'}`,
            'warn',
          );
        }
        this.store.dispatch({ type: 'item', kind: 'output', text: `#${n} ${oneLine(call.tool, 64)}, the whole output:\n${call.output}`, tone: 'dim', cut: null });
        return;
      }
      case 'reload':
        return this.reload();
      case 'clear':
        try {
          host.clear();
          this.info('new conversation (same session)');
        } catch (e) {
          this.info(`error: ${e instanceof Error ? e.message : String(e)}`, 'bad');
        }
        return;
      case 'quit':
        return this.quit();
    }
  }

  /** Re-read the configuration (hot reload or `/reload`); the host reports what changed. */
  reload(): void {
    if (this.ending) return;
    let reported = false;
    const off = this.o.host.subscribe((e) => {
      if (e.type === 'config_reloaded') reported = true;
    });
    try {
      const report = this.o.host.reload();
      if (!reported) this.store.dispatch({ type: 'host', event: { type: 'config_reloaded', report }, now: this.now() });
    } catch (e) {
      this.info(`reload failed: ${e instanceof Error ? e.message : String(e)}`, 'bad');
    } finally {
      off();
    }
  }

  /** Graceful exit: withdraw modals, `end()` (fires `session_end` after pending writes), then exit. Idempotent. */
  quit(): Promise<void> {
    if (this.ending) return this.ending;
    this.store.patch({ exiting: true });
    this.store.withdrawAll();
    this.ending = (async () => {
      let code = 0;
      try {
        if (this.o.host.getSnapshot().busy) this.o.host.cancel();
        await this.o.host.end();
      } catch (e) {
        code = 1;
        process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
      }
      this.unsubscribe();
      this.o.onExit(code);
    })();
    return this.ending;
  }
}
