/**
 * Rebuilding a thread's conversation after a crash: the conversation stored when its last turn
 * ended, then every message the journal committed since, in order; then every tool call that
 * was asked for but never answered (the process died while it ran or waited for approval) is
 * closed with an interrupted result, so the model's next request is a valid conversation that
 * says what happened.
 */

/** What the model is told about a call that was running when the server stopped. */
export const INTERRUPTED_RESULT = 'Error: interrupted: the server stopped while this call was running, so its result is unknown. It may have had effects; check before running it again.';

interface Message {
  readonly role?: unknown;
  readonly toolCalls?: readonly { readonly id?: unknown }[];
  readonly toolCallId?: unknown;
}

/** Every assistant tool call without a tool result gets one ({@link INTERRUPTED_RESULT}), right after its batch's results. */
export function closeInterruptedCalls(history: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < history.length; i++) {
    const m = history[i] as Message;
    out.push(m);
    if (m?.role !== 'assistant' || !Array.isArray(m.toolCalls) || m.toolCalls.length === 0) continue;
    // The results of this batch are the tool messages that follow it.
    const answered = new Set<unknown>();
    while (i + 1 < history.length && (history[i + 1] as Message)?.role === 'tool') {
      const r = history[++i] as Message;
      answered.add(r.toolCallId);
      out.push(r);
    }
    for (const call of m.toolCalls) if (!answered.has(call.id)) out.push({ role: 'tool', toolCallId: call.id, content: INTERRUPTED_RESULT });
  }
  return out;
}

/** The stored conversation with the journal's messages after it, interrupted calls closed. */
export function resumeConversation(stored: unknown, journal: readonly { ordinal: number; message: unknown }[]): unknown {
  if (stored === null || typeof stored !== 'object') return stored;
  const base = stored as { history?: unknown[] };
  const history = [...(base.history ?? [])];
  for (const { ordinal, message } of journal) {
    if (ordinal === history.length) history.push(message);
    else if (ordinal < history.length) history[ordinal] = message;
    // A gap cannot happen (the journal is written in order); a row past one is ignored.
  }
  return { ...base, history: closeInterruptedCalls(history) };
}
