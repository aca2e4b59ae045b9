import type { SessionSnapshot } from '@codewhale/engine';
import { composerLines } from './composer.js';
import type { LiveInput, Row } from './live-layout.js';
import { oneLine } from './text-bounds.js';
import { visibleToast } from './tui-state.js';
import type { Modal, StoreSnapshot } from './tui-store.js';
import { approvalRows, HOOK_SHOW_AFTER_MS, statusLine } from './view-models.js';

const MAX_MENU = 6;
const TOAST_COLOR = { error: 'red', warning: 'yellow', info: 'green' } as const;

/** The open modal as rows (wrapped by the live layout); the last row is the key hint. Pure. */
export function modalRows(modal: Modal, answers: Readonly<Record<string, unknown>>, always: boolean): Row[] | null {
  if (modal.kind === 'approval') return approvalRows(modal.request, always);
  const q = modal.request.questions.find((x) => !(x.id in answers));
  if (!q) return null;
  return [
    { text: oneLine(q.header || 'Question', 80), bold: true, color: 'cyan' },
    { text: oneLine(q.question, 300), color: 'cyan' },
    ...q.options.slice(0, 9).map((o, i): Row => ({ text: `${i + 1}. ${oneLine(o.label, 80)}${o.description ? ` \u2014 ${oneLine(o.description, 100)}` : ''}`, color: 'cyan' })),
    { text: q.options.length ? 'press 1-9, or type an answer and Enter \u00b7 Esc declines' : 'type an answer and Enter \u00b7 Esc declines', color: 'gray' },
  ];
}

export interface ScreenFacts {
  readonly session: SessionSnapshot;
  readonly snap: StoreSnapshot;
  /** The slash-command completion menu for the composer's text. */
  readonly menu: readonly { readonly name: string; readonly summary: string }[];
  /** The approval modal offers "always". */
  readonly canAlwaysAllow: boolean;
  readonly now: number;
  readonly columns: number;
  readonly rows: number;
}

/** What the live region shows, from the session's and the UI's snapshots (for `layoutLive`). Pure. */
export function screenInput(f: ScreenFacts): LiveInput {
  const { session, snap, now } = f;
  const toast = visibleToast(snap.ui.toasts, now);
  const modal = snap.modals[0];
  const menu = f.menu.slice(0, MAX_MENU);
  const menuAt = Math.min(snap.menuIndex, menu.length - 1);
  const comp = composerLines(snap.composer);
  return {
    columns: f.columns,
    rows: f.rows,
    reasoning: snap.ui.liveReasoning,
    text: snap.ui.liveText,
    queued: session.queued.map((q) => oneLine(q, 200)),
    modal: modal ? modalRows(modal, snap.answers, f.canAlwaysAllow) : null,
    composer: !modal || modal.kind === 'question' ? { lines: comp.lines, line: comp.line, column: comp.column, prompt: session.busy ? '\u00bb ' : '\u276f ' } : null,
    menu: menu.map((m, i): Row => ({ text: `${i === menuAt ? '\u203a ' : '  '}/${m.name.padEnd(9)} ${m.summary}`, color: i === menuAt ? 'cyan' : 'gray' })),
    toast: toast ? { text: oneLine(toast.message, 300), color: TOAST_COLOR[toast.level] } : null,
    status: snap.exiting ? 'ending the session\u2026' : snap.ui.status ? `${statusLine(session, now)} \u00b7 ${snap.ui.status}` : statusLine(session, now),
  };
}

/**
 * When the screen must be drawn again with nothing else changing: the visible toast expires,
 * or a running hook passes the mark after which the status row names it. `null`: never. Pure.
 */
export function nextWake(session: SessionSnapshot, snap: StoreSnapshot, now: number): number | null {
  const waits: number[] = [];
  const toast = visibleToast(snap.ui.toasts, now);
  if (toast) waits.push(toast.expiresAt);
  const hook = session.activeHook;
  if (hook && now - hook.startedAt < HOOK_SHOW_AFTER_MS) waits.push(hook.startedAt + HOOK_SHOW_AFTER_MS);
  return waits.length ? Math.min(...waits) : null;
}
