import type { Approval, Item, RuntimeEvent, Thread, Turn, UserInput } from '@codewhale/runtime-client';

/** One line of a thread's transcript: an item as the events have built it so far. */
export interface Entry {
  readonly id: string;
  readonly turnId: string;
  readonly kind: Item['kind'];
  readonly status: Item['status'];
  /** The text streamed so far (assistant text, reasoning), or the item's detail. */
  readonly text: string;
  /** The latest stored item (null while only deltas have arrived). */
  readonly item: Item | null;
}

/**
 * A thread's transcript, built from its events in seq order. `seq` is the last event applied:
 * an event at or below it is ignored, so replaying the log and then the live stream (which
 * overlap) shows each event once, and resuming after a drop loses nothing.
 */
export interface Transcript {
  readonly seq: number;
  readonly order: readonly string[];
  readonly entries: Readonly<Record<string, Entry>>;
  readonly turns: Readonly<Record<string, Turn>>;
  readonly thread: Thread | null;
  readonly deleted: boolean;
}

export const emptyTranscript: Transcript = { seq: 0, order: [], entries: {}, turns: {}, thread: null, deleted: false };

const textOf = (item: Item, before: string): string => {
  if (item.kind === 'agent_message' || item.kind === 'agent_reasoning') return item.detail ?? (before || item.summary);
  return item.detail ?? item.summary;
};

function put(t: Transcript, item: Item, seq: number): Transcript {
  const prev = t.entries[item.id];
  const entry: Entry = { id: item.id, turnId: item.turn_id, kind: item.kind, status: item.status, text: textOf(item, prev?.text ?? ''), item };
  return { ...t, seq, order: prev ? t.order : [...t.order, item.id], entries: { ...t.entries, [item.id]: entry } };
}

/** `t` with `ev` applied (the same `t` when `ev` was applied already). */
export function applyEvent(t: Transcript, ev: RuntimeEvent): Transcript {
  if (ev.seq <= t.seq) return t;
  switch (ev.event) {
    case 'thread.started':
    case 'thread.archived':
    case 'thread.unarchived':
      return { ...t, seq: ev.seq, thread: ev.payload.thread };
    case 'thread.deleted':
      return { ...t, seq: ev.seq, deleted: true };
    case 'turn.started':
    case 'turn.completed':
      return { ...t, seq: ev.seq, turns: { ...t.turns, [ev.payload.turn.id]: ev.payload.turn } };
    case 'item.started':
    case 'item.completed':
    case 'item.failed':
      return put(t, ev.payload.item, ev.seq);
    case 'item.delta': {
      const id = ev.item_id;
      if (id === null) return { ...t, seq: ev.seq };
      const prev = t.entries[id];
      const entry: Entry = prev ? { ...prev, text: prev.text + ev.payload.delta } : { id, turnId: ev.turn_id ?? '', kind: ev.payload.kind, status: 'in_progress', text: ev.payload.delta, item: null };
      return { ...t, seq: ev.seq, order: prev ? t.order : [...t.order, id], entries: { ...t.entries, [id]: entry } };
    }
    default:
      return { ...t, seq: ev.seq };
  }
}

/** The transcript of stored items alone (when the event log no longer reaches back to the start). */
export function fromItems(items: readonly Item[]): Transcript {
  let t = emptyTranscript;
  for (const item of items) t = put(t, item, 0);
  return t;
}

/** Pending approvals by id, kept current by the events of every thread. */
export function applyApprovalEvent(pending: ReadonlyMap<string, Approval>, ev: RuntimeEvent): ReadonlyMap<string, Approval> {
  if (ev.event === 'approval.required' && ev.payload.approval.status === 'pending') return new Map(pending).set(ev.payload.approval.id, ev.payload.approval);
  if (ev.event === 'approval.decided' || ev.event === 'approval.timeout') {
    if (!pending.has(ev.payload.approval.id)) return pending;
    const next = new Map(pending);
    next.delete(ev.payload.approval.id);
    return next;
  }
  if (ev.event === 'thread.deleted') {
    const next = new Map([...pending].filter(([, a]) => a.thread_id !== ev.payload.thread_id));
    return next.size === pending.size ? pending : next;
  }
  return pending;
}

/** Pending questions (`request_user_input`) by id, kept current by the events of every thread. */
export function applyUserInputEvent(pending: ReadonlyMap<string, UserInput>, ev: RuntimeEvent): ReadonlyMap<string, UserInput> {
  if (ev.event === 'user_input.required' && ev.payload.user_input.status === 'pending') return new Map(pending).set(ev.payload.user_input.id, ev.payload.user_input);
  if (ev.event === 'user_input.answered' || ev.event === 'user_input.timeout') {
    if (!pending.has(ev.payload.user_input.id)) return pending;
    const next = new Map(pending);
    next.delete(ev.payload.user_input.id);
    return next;
  }
  if (ev.event === 'thread.deleted') {
    const next = new Map([...pending].filter(([, u]) => u.thread_id !== ev.payload.thread_id));
    return next.size === pending.size ? pending : next;
  }
  return pending;
}

/** How a diff line is shown: a hunk header, an added, a removed or a context line. */
export function diffLineKind(line: string): 'hunk' | 'add' | 'del' | 'ctx' {
  return line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
}

/** The first and last lines of a long output, and how many lines are left out between them. */
export function headTail(text: string, head = 12, tail = 12): { readonly head: string; readonly tail: string; readonly omitted: number } {
  const lines = text.split('\n');
  if (lines.length <= head + tail) return { head: text, tail: '', omitted: 0 };
  return { head: lines.slice(0, head).join('\n'), tail: lines.slice(lines.length - tail).join('\n'), omitted: lines.length - head - tail };
}
