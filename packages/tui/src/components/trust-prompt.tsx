import { Box, Text } from 'ink';
import { useState } from 'react';
import { oneLine } from '../text-bounds.js';
import type { Key } from '../input-decoder.js';
import type { TrustGate } from '../tui-store.js';
import { useKeys } from './use-keys.js';

export type TrustChoice = 'trust' | 'untrusted' | 'quit';

/** The key a person pressed at the trust prompt (`1`/`y`, `2`/`u`, `3`/`n`), or `null` for any other key. */
export function trustChoice(key: Key): TrustChoice | null {
  if (key.kind === 'ctrl_c') return 'quit';
  if (key.kind !== 'text') return null;
  const k = key.text.toLowerCase();
  return k === '1' || k === 'y' ? 'trust' : k === '2' || k === 'u' ? 'untrusted' : k === '3' || k === 'n' ? 'quit' : null;
}

/** The launch gate for an untrusted workspace: an explicit key press, nothing by default. */
export function TrustPrompt({ gate, onChoice }: { gate: TrustGate; onChoice: (c: TrustChoice) => void }) {
  const [chosen, setChosen] = useState<TrustChoice | null>(null);
  useKeys((k) => {
    const c = trustChoice(k);
    if (c && !chosen) {
      setChosen(c);
      onChoice(c);
    }
  });
  // Once answered, the box gives way to one line (the transcript starts below it).
  if (chosen)
    return (
      <Text color="gray">
        {chosen === 'trust' ? 'trusting' : chosen === 'untrusted' ? 'continuing untrusted:' : 'quit:'} {oneLine(gate.workspace, 200)}
      </Text>
    );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>Do you trust the files in this folder?</Text>
      <Text>{oneLine(gate.workspace, 200)}</Text>
      <Text color="gray">Trusting lets project settings apply. It never runs project hooks by itself: they need review and approval.</Text>
      {gate.projectHooks && gate.projectHooks !== 'none' ? (
        <Text color="yellow">
          This workspace ships .codewhale/hooks.toml: {gate.projectHooks === 'approved' ? 'approved' : gate.projectHooks === 'changed' ? 'changed since approval' : 'pending approval'}. Review it with
          /hooks review, then /hooks approve {'<digest>'}.
        </Text>
      ) : null}
      <Text> </Text>
      <Text>1 / y Trust this folder</Text>
      <Text>2 / u Continue untrusted (this session only)</Text>
      <Text>3 / n Quit</Text>
    </Box>
  );
}

/** The element `runTui` renders for the launch trust prompt. */
export function trustPromptElement(props: { gate: TrustGate; onChoice: (c: TrustChoice) => void }): React.ReactElement {
  return <TrustPrompt {...props} />;
}
