/**
 * The composer as data: the text being typed (multi-line), the cursor, and the input history.
 * Pure: every edit returns a new state.
 */
export interface ComposerState {
  readonly text: string;
  /** Cursor position in UTF-16 units, always on a code-point boundary. */
  readonly cursor: number;
  /** Submitted messages, oldest first (bounded). */
  readonly history: readonly string[];
  /** Position while browsing history (`history.length` = the draft). */
  readonly historyIndex: number;
  /** The text being typed before history browsing started. */
  readonly draft: string;
}

export const HISTORY_LIMIT = 200;

export function emptyComposer(history: readonly string[] = []): ComposerState {
  return { text: '', cursor: 0, history, historyIndex: history.length, draft: '' };
}

export function insertText(s: ComposerState, text: string): ComposerState {
  const next = s.text.slice(0, s.cursor) + text + s.text.slice(s.cursor);
  return { ...s, text: next, cursor: s.cursor + text.length, historyIndex: s.history.length };
}

function prevBoundary(text: string, i: number): number {
  if (i <= 0) return 0;
  const c = text.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? i - 2 : i - 1;
}

function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
}

export function backspace(s: ComposerState): ComposerState {
  if (s.cursor === 0) return s;
  const at = prevBoundary(s.text, s.cursor);
  return { ...s, text: s.text.slice(0, at) + s.text.slice(s.cursor), cursor: at };
}

export function deleteForward(s: ComposerState): ComposerState {
  if (s.cursor >= s.text.length) return s;
  const to = nextBoundary(s.text, s.cursor);
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(to) };
}

export function moveCursor(s: ComposerState, dir: 'left' | 'right' | 'home' | 'end'): ComposerState {
  if (dir === 'left') return { ...s, cursor: prevBoundary(s.text, s.cursor) };
  if (dir === 'right') return { ...s, cursor: nextBoundary(s.text, s.cursor) };
  const lineStart = s.text.lastIndexOf('\n', s.cursor - 1) + 1;
  if (dir === 'home') return { ...s, cursor: lineStart };
  const nl = s.text.indexOf('\n', s.cursor);
  return { ...s, cursor: nl === -1 ? s.text.length : nl };
}

export function setText(s: ComposerState, text: string): ComposerState {
  return { ...s, text, cursor: text.length, historyIndex: s.history.length };
}

/** Up: the previous history entry (the current text is kept as the draft). */
export function historyUp(s: ComposerState): ComposerState {
  if (s.historyIndex === 0 || s.history.length === 0) return s;
  const draft = s.historyIndex === s.history.length ? s.text : s.draft;
  const i = s.historyIndex - 1;
  const text = s.history[i]!;
  return { ...s, text, cursor: text.length, historyIndex: i, draft };
}

/** Down: the next history entry, then back to the draft. */
export function historyDown(s: ComposerState): ComposerState {
  if (s.historyIndex >= s.history.length) return s;
  const i = s.historyIndex + 1;
  const text = i === s.history.length ? s.draft : s.history[i]!;
  return { ...s, text, cursor: text.length, historyIndex: i };
}

/** Take the text for submission: the composer empties and the text joins the history (no blank or repeated entries). */
export function takeSubmission(s: ComposerState): { readonly state: ComposerState; readonly text: string } {
  const text = s.text;
  let history = s.history;
  if (text.trim() !== '' && history[history.length - 1] !== text) history = [...history, text].slice(-HISTORY_LIMIT);
  return { state: emptyComposer(history), text };
}

/** The composer's lines for display and where the cursor sits (line, column in code points). */
export function composerLines(s: ComposerState): { readonly lines: readonly string[]; readonly line: number; readonly column: number } {
  const before = s.text.slice(0, s.cursor);
  const line = before.split('\n').length - 1;
  const column = Array.from(before.slice(before.lastIndexOf('\n') + 1)).length;
  return { lines: s.text.split('\n'), line, column };
}
