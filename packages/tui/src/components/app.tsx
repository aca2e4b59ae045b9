import type { SessionHostApi } from '@codewhale/engine';
import { Box, Static, Text, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { composerLines } from '../composer.js';
import { oneLine, tailLines } from '../text-bounds.js';
import type { TuiController } from '../tui-controller.js';
import { visibleToast, type TranscriptItem } from '../tui-state.js';
import type { Modal, TuiStore } from '../tui-store.js';
import { HOOK_SHOW_AFTER_MS, liveBudget, statusLine } from '../view-models.js';
import { useKeys } from './use-keys.js';

export interface AppProps {
  readonly host: SessionHostApi;
  readonly store: TuiStore;
  readonly controller: TuiController;
  /** Rows when the terminal does not say (tests). */
  readonly rows?: number;
}

const TONE: Record<NonNullable<TranscriptItem['tone']>, string> = { dim: 'gray', ok: 'green', bad: 'red', warn: 'yellow' };

function ItemView({ item }: { item: TranscriptItem }) {
  const color = item.tone ? TONE[item.tone] : item.kind === 'user' ? 'cyan' : undefined;
  return (
    <Box flexDirection="column">
      {item.lines.map((l, i) => (
        <Text key={i} color={color} dimColor={item.kind === 'reasoning'}>
          {l === '' ? ' ' : l}
        </Text>
      ))}
    </Box>
  );
}

const MAX_COMPOSER_LINES = 6;
const MAX_MENU = 6;

function ModalView({ modal, answers, always }: { modal: Modal; answers: Readonly<Record<string, unknown>>; always: boolean }) {
  if (modal.kind === 'approval') {
    const r = modal.request;
    return (
      <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
        <Text bold>{r.reason === 'hook' ? 'A hook asks for approval' : 'Approve this tool call?'}</Text>
        <Text>{oneLine(r.summary || r.tool, 200)}</Text>
        <Text color="gray">y allow once · a allow for this session{always ? ' · A always (permissions rule)' : ''} · n / Esc deny</Text>
      </Box>
    );
  }
  const q = modal.request.questions.find((x) => !(x.id in answers));
  if (!q) return null;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{oneLine(q.header || 'Question', 80)}</Text>
      <Text>{oneLine(q.question, 300)}</Text>
      {q.options.slice(0, 9).map((o, i) => (
        <Text key={i}>
          {i + 1}. {oneLine(o.label, 80)}
          {o.description ? <Text color="gray"> — {oneLine(o.description, 100)}</Text> : null}
        </Text>
      ))}
      <Text color="gray">{q.options.length ? 'press 1-9, or type an answer and Enter · Esc declines' : 'type an answer and Enter · Esc declines'}</Text>
    </Box>
  );
}

/** The whole screen: finished transcript in `<Static>`, then a live region kept shorter than the terminal. */
export function App({ host, store, controller, rows: rowsProp }: AppProps) {
  const session = useSyncExternalStore(host.subscribe, host.getSnapshot);
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { stdout } = useStdout();
  const rows = stdout.rows || rowsProp || 24;
  const [now, setNow] = useState(() => Date.now());
  useKeys((k) => controller.handleKey(k));

  // Re-render when a toast expires or a running hook passes the 300 ms visibility mark.
  const toast = visibleToast(snap.ui.toasts, now);
  const hook = session.activeHook;
  useEffect(() => {
    const waits: number[] = [];
    if (toast) waits.push(toast.expiresAt - now);
    if (hook && now - hook.startedAt < HOOK_SHOW_AFTER_MS) waits.push(hook.startedAt + HOOK_SHOW_AFTER_MS - now);
    if (waits.length === 0) return;
    const t = setTimeout(() => {
      const n = Date.now();
      store.dispatch({ type: 'tick', now: n });
      setNow(n);
    }, Math.max(10, Math.min(...waits) + 5));
    return () => clearTimeout(t);
  }, [toast, hook, now, store]);
  useEffect(() => {
    setNow(Date.now());
  }, [session, snap]);

  const modal = snap.modals[0];
  const menu = controller.menu().slice(0, MAX_MENU);
  const comp = composerLines(snap.composer);
  const compStart = Math.max(0, Math.min(comp.line - MAX_COMPOSER_LINES + 1, comp.lines.length - MAX_COMPOSER_LINES));
  const shownComp = comp.lines.slice(compStart, compStart + MAX_COMPOSER_LINES);
  const queued = session.queued.slice(0, 3);

  // Rows the fixed parts take; the streaming text gets what is left, and never all of it.
  const used =
    (modal ? (modal.kind === 'approval' ? 5 : 6 + Math.min(9, modal.kind === 'question' ? (modal.request.questions[0]?.options.length ?? 0) : 0)) : 0) +
    shownComp.length +
    (compStart > 0 ? 1 : 0) +
    menu.length +
    (queued.length ? queued.length + (session.queued.length > 3 ? 1 : 0) : 0) +
    2 /* toast + status */ +
    1 /* the hidden-lines marker */;
  const budget = liveBudget(rows, used);
  const reasoning = snap.ui.liveReasoning ? tailLines(snap.ui.liveReasoning, Math.min(3, Math.max(1, Math.floor(budget / 3)))) : null;
  const text = snap.ui.liveText ? tailLines(snap.ui.liveText, Math.max(1, budget - (reasoning ? reasoning.lines.length : 0))) : null;

  return (
    <>
      <Static items={snap.ui.items as TranscriptItem[]}>{(item) => <ItemView key={item.id} item={item} />}</Static>
      <Box flexDirection="column">
        {reasoning
          ? reasoning.lines.map((l, i) => (
              <Text key={`r${i}`} dimColor>
                {l || ' '}
              </Text>
            ))
          : null}
        {text && text.hidden > 0 ? <Text color="gray">… {text.hidden} earlier lines</Text> : null}
        {text ? text.lines.map((l, i) => <Text key={`t${i}`}>{l || ' '}</Text>) : null}
        {queued.map((q, i) => (
          <Text key={`q${i}`} color="gray">
            queued {i + 1}: {oneLine(q, 100)}
          </Text>
        ))}
        {session.queued.length > 3 ? <Text color="gray">… {session.queued.length - 3} more queued (/queue)</Text> : null}
        {modal ? <ModalView modal={modal} answers={snap.answers} always={controller.canAlwaysAllow} /> : null}
        {!modal || modal.kind === 'question' ? (
          <Box flexDirection="column">
            {compStart > 0 ? <Text color="gray">… {compStart} lines above</Text> : null}
            {shownComp.map((l, i) => (
              <Text key={`c${i}`}>
                <Text color="cyan">{i + compStart === 0 ? (session.busy ? '» ' : '❯ ') : '  '}</Text>
                {withCursor(l, i + compStart === comp.line ? comp.column : -1)}
              </Text>
            ))}
          </Box>
        ) : null}
        {menu.map((m, i) => (
          <Text key={`m${i}`} color={i === Math.min(snap.menuIndex, menu.length - 1) ? 'cyan' : 'gray'}>
            {i === Math.min(snap.menuIndex, menu.length - 1) ? '› ' : '  '}/{m.name.padEnd(9)} {m.summary}
          </Text>
        ))}
        <Text color={toast ? (toast.level === 'error' ? 'red' : toast.level === 'warning' ? 'yellow' : 'green') : undefined}>{toast ? oneLine(toast.message, 200) : ' '}</Text>
        <Text color="gray">{snap.exiting ? 'ending the session…' : snap.ui.status ? `${statusLine(session, now)} · ${snap.ui.status}` : statusLine(session, now)}</Text>
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
