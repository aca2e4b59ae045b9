import type { SessionHostApi } from '@codewhale/engine';
import { Box, Static, Text, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { composerLines } from '../composer.js';
import { layoutLive, type Row } from '../live-layout.js';
import { wrapRows } from '../rows.js';
import type { LiveStdout } from '../live-stdout.js';
import { oneLine } from '../text-bounds.js';
import type { TuiController } from '../tui-controller.js';
import { visibleToast, type TranscriptItem } from '../tui-state.js';
import type { Modal, TuiStore } from '../tui-store.js';
import { approvalRows, HOOK_SHOW_AFTER_MS, statusLine } from '../view-models.js';
import { useKeys } from './use-keys.js';

export interface AppProps {
  readonly host: SessionHostApi;
  readonly store: TuiStore;
  readonly controller: TuiController;
  /** Rows when the terminal does not say (tests). */
  readonly rows?: number;
}

const TONE: Record<NonNullable<TranscriptItem['tone']>, string> = { dim: 'gray', ok: 'green', bad: 'red', warn: 'yellow' };

function ItemView({ item, columns }: { item: TranscriptItem; columns: number }) {
  const color = item.tone ? TONE[item.tone] : item.kind === 'user' ? 'cyan' : undefined;
  // One Text for the whole item, nothing cut. Its lines are word-wrapped here to the terminal's
  // width (a linear pass), so Ink, which would otherwise wrap them again, character by
  // character, on every frame that prints items, only writes them.
  const rows: string[] = [];
  for (const l of item.lines) for (const r of wrapRows(l, columns)) rows.push(r === '' ? ' ' : r);
  return (
    <Text color={color} dimColor={item.kind === 'reasoning'}>
      {rows.join('\n')}
    </Text>
  );
}

const MAX_MENU = 6;

/** The open modal as rows (wrapped by the live layout); the last row is the key hint. */
function modalRows(modal: Modal, answers: Readonly<Record<string, unknown>>, always: boolean): Row[] | null {
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

const TOAST_COLOR = { error: 'red', warning: 'yellow', info: 'green' } as const;

/**
 * The whole screen: finished transcript items are printed once, in `<Static>` (into the
 * terminal's own scrollback); below them the live region, laid out in terminal rows by
 * `layoutLive` and always shorter than the terminal.
 */
export function App({ host, store, controller, rows: rowsProp }: AppProps) {
  const session = useSyncExternalStore(host.subscribe, host.getSnapshot);
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { stdout } = useStdout();
  const live = stdout as unknown as Partial<LiveStdout>;
  const rows = live.viewRows ?? (stdout.rows || rowsProp || 24);
  const columns = stdout.columns || 80;
  const [tick, setTick] = useState(0);
  useKeys((k) => controller.handleKey(k));
  // Re-lay the live region on resize (Ink redraws, but the layout depends on the size).
  useEffect(() => {
    const onResize = () => setTick((t) => t + 1);
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout]);

  // Re-render when a toast expires or a running hook passes the 300 ms visibility mark.
  const now = Date.now();
  const toast = visibleToast(snap.ui.toasts, now);
  const hook = session.activeHook;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` re-arms the timer after each expiry on purpose
  useEffect(() => {
    const waits: number[] = [];
    if (toast) waits.push(toast.expiresAt - now);
    if (hook && now - hook.startedAt < HOOK_SHOW_AFTER_MS) waits.push(hook.startedAt + HOOK_SHOW_AFTER_MS - now);
    if (waits.length === 0) return;
    const t = setTimeout(
      () => {
        store.dispatch({ type: 'tick', now: Date.now() });
        setTick((x) => x + 1);
      },
      Math.max(10, Math.min(...waits) + 5),
    );
    return () => clearTimeout(t);
  }, [toast, hook, now, store, tick]);

  const modal = snap.modals[0];
  const menu = controller.menu().slice(0, MAX_MENU);
  const menuAt = Math.min(snap.menuIndex, menu.length - 1);
  const comp = composerLines(snap.composer);
  const frame = layoutLive({
    columns,
    rows,
    reasoning: snap.ui.liveReasoning,
    text: snap.ui.liveText,
    queued: session.queued.map((q) => oneLine(q, 200)),
    modal: modal ? modalRows(modal, snap.answers, controller.canAlwaysAllow) : null,
    composer: !modal || modal.kind === 'question' ? { lines: comp.lines, line: comp.line, column: comp.column, prompt: session.busy ? '\u00bb ' : '\u276f ' } : null,
    menu: menu.map((m, i): Row => ({ text: `${i === menuAt ? '\u203a ' : '  '}/${m.name.padEnd(9)} ${m.summary}`, color: i === menuAt ? 'cyan' : 'gray' })),
    toast: toast ? { text: oneLine(toast.message, 300), color: TOAST_COLOR[toast.level] } : null,
    status: snap.exiting ? 'ending the session\u2026' : snap.ui.status ? `${statusLine(session, now)} \u00b7 ${snap.ui.status}` : statusLine(session, now),
  });

  return (
    <>
      <Static items={snap.ui.items as TranscriptItem[]}>{(item) => <ItemView key={item.id} item={item} columns={columns} />}</Static>
      <Box flexDirection="column">
        {frame.map((r, i) => (
          <Text key={i} wrap="truncate-end" color={r.color} dimColor={r.dim} bold={r.bold}>
            {r.prefix ? <Text color={r.prefixColor}>{r.prefix}</Text> : null}
            {r.cursor === undefined ? r.text || ' ' : withCursor(r.text, r.cursor)}
          </Text>
        ))}
      </Box>
    </>
  );
}

function withCursor(line: string, column: number): React.ReactNode {
  if (column < 0) return line || ' ';
  const chars = Array.from(line);
  const at = chars[column] ?? ' ';
  return (
    <>
      {chars.slice(0, column).join('')}
      <Text inverse>{at}</Text>
      {chars.slice(column + 1).join('')}
    </>
  );
}

/** The element `runTui` renders (made here, so the module that starts the UI needs no React of its own). */
export function appElement(props: AppProps): React.ReactElement {
  return <App {...props} />;
}
