import type { VNode } from 'preact';
import { segments } from './visible.js';

/** Text with its invisible characters shown as marks (see visible.ts); always text nodes, never markup. */
export function Visible({ text }: { readonly text: string }): VNode {
  const parts = segments(text);
  if (parts.length === 1 && !parts[0]!.hidden) return <>{parts[0]!.text}</>;
  return (
    <>
      {parts.map((s, i) =>
        s.hidden ? (
          <span key={i} class="hidden-char" title={`invisible character ${s.text}`}>
            {s.text}
          </span>
        ) : (
          s.text
        ),
      )}
    </>
  );
}
