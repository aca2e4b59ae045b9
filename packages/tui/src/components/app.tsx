import type { SessionHostApi } from '@codewhale/engine';
import { Box, Static, Text, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { layoutLive } from '../live-layout.js';
import { wrapRows } from '../rows.js';
import type { LiveStdout } from '../live-stdout.js';
import { nextWake, screenInput } from '../screen-model.js';
import type { TuiController } from '../tui-controller.js';
import type { TranscriptItem } from '../tui-state.js';
import type { TuiStore } from '../tui-store.js';
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
  const wake = nextWake(session, snap, now);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` re-arms the timer after each expiry on purpose
  useEffect(() => {
    if (wake === null) return;
    const t = setTimeout(
      () => {
        store.dispatch({ type: 'tick', now: Date.now() });
        setTick((x) => x + 1);
      },
      Math.max(10, wake - now + 5),
    );
    return () => clearTimeout(t);
  }, [wake, now, store, tick]);

  const frame = layoutLive(screenInput({ session, snap, menu: controller.menu(), canAlwaysAllow: controller.canAlwaysAllow, now, columns, rows }));

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
