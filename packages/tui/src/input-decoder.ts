/**
 * Terminal input → keys. Works on raw chunks (and on the pieces Ink's own parser splits them
 * into): escape sequences for arrows, Tab/Shift+Tab, Enter, Esc, Ctrl keys, and bracketed paste
 * (`ESC[200~ … ESC[201~`), which may span any number of chunks and becomes ONE `paste` key.
 */
export type Key =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'paste'; readonly text: string }
  | {
      readonly kind: 'enter' | 'newline' | 'backspace' | 'delete' | 'tab' | 'shift_tab' | 'up' | 'down' | 'left' | 'right' | 'home' | 'end' | 'escape' | 'ctrl_c' | 'ctrl_d' | 'ctrl_u' | 'ctrl_o';
    };

export interface DecoderState {
  /** Inside a bracketed paste: what arrived so far. */
  readonly paste: string | null;
  /** An escape sequence cut at a chunk's end. */
  readonly pending: string;
}

export const INITIAL_DECODER: DecoderState = { paste: null, pending: '' };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** Cap on a single paste (code units); the rest is dropped with the paste still ONE message. */
export const MAX_PASTE_CHARS = 1024 * 1024;

const CSI: Record<string, Key['kind']> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  Z: 'shift_tab',
  '3~': 'delete',
  '1~': 'home',
  '4~': 'end',
  '7~': 'home',
  '8~': 'end',
  '13;2u': 'newline',
  '13;5u': 'newline',
  '27;2;13~': 'newline',
  '27;5;13~': 'newline',
};

function controlKey(ch: string): Key | null {
  switch (ch) {
    case '\r':
      return { kind: 'enter' };
    case '\n':
      return { kind: 'newline' };
    case '\t':
      return { kind: 'tab' };
    case '\x7f':
    case '\b':
      return { kind: 'backspace' };
    case '\x03':
      return { kind: 'ctrl_c' };
    case '\x04':
      return { kind: 'ctrl_d' };
    case '\x15':
      return { kind: 'ctrl_u' };
    case '\x0f':
      return { kind: 'ctrl_o' };
    default:
      return null;
  }
}

/** Length of a complete escape sequence at `i` (0: incomplete, the chunk ended inside it). */
function escapeLength(s: string, i: number): number {
  if (i + 1 >= s.length) return 0; // a lone ESC at a chunk's end: Esc, or the start of a sequence (see flushDecoder)
  const next = s[i + 1]!;
  if (next === '[' || next === 'O') {
    for (let j = i + 2; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e && !(next === '[' && j === i + 2 && s[j] === '[')) return j - i + 1;
    }
    return 0;
  }
  return 2; // ESC + one character (Alt+key)
}

/** Feed one chunk; returns the new state and the keys it completed. Pure. */
export function decodeInput(state: DecoderState, chunk: string): { readonly state: DecoderState; readonly keys: readonly Key[] } {
  const keys: Key[] = [];
  const s = state.pending + chunk;
  let paste = state.paste;
  let text = '';
  const flushText = () => {
    if (text) keys.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < s.length) {
    if (paste !== null) {
      const end = s.indexOf(PASTE_END, i);
      if (end === -1) {
        // Keep a possible partial end marker for the next chunk.
        let keep = 0;
        for (let k = Math.min(PASTE_END.length - 1, s.length - i); k > 0; k--) {
          if (PASTE_END.startsWith(s.slice(s.length - k))) {
            keep = k;
            break;
          }
        }
        paste = appendPaste(paste, s.slice(i, s.length - keep));
        return { state: { paste, pending: s.slice(s.length - keep) }, keys };
      }
      paste = appendPaste(paste, s.slice(i, end));
      keys.push({ kind: 'paste', text: normalizePaste(paste) });
      paste = null;
      i = end + PASTE_END.length;
      continue;
    }
    const ch = s[i]!;
    if (ch === '\x1b') {
      if (s.startsWith(PASTE_START, i)) {
        flushText();
        paste = '';
        i += PASTE_START.length;
        continue;
      }
      if (PASTE_START.startsWith(s.slice(i)) && s.length - i < PASTE_START.length && s.length - i > 1) {
        flushText();
        return { state: { paste: null, pending: s.slice(i) }, keys };
      }
      const len = escapeLength(s, i);
      if (len === 0) {
        flushText();
        return { state: { paste: null, pending: s.slice(i) }, keys };
      }
      flushText();
      const seq = s.slice(i, i + len);
      keys.push(escapeKey(seq));
      i += len;
      continue;
    }
    const ctl = controlKey(ch);
    if (ctl) {
      flushText();
      keys.push(ctl);
      i++;
      continue;
    }
    const code = ch.charCodeAt(0);
    if (code < 0x20) {
      i++; // other control characters are dropped
      continue;
    }
    text += ch;
    i++;
  }
  flushText();
  return { state: { paste, pending: '' }, keys };
}

function escapeKey(seq: string): Key {
  if (seq === '\x1b') return { kind: 'escape' };
  if (seq.length === 2) {
    // Alt+Enter is a newline; other Alt keys are ignored as text.
    if (seq[1] === '\r' || seq[1] === '\n') return { kind: 'newline' };
    if (seq[1] === '\x7f') return { kind: 'backspace' };
    return { kind: 'escape' };
  }
  const body = seq.slice(2);
  const kind = CSI[body] ?? CSI[body.replace(/^1;\d+/, '')];
  if (kind) return { kind } as Key;
  return { kind: 'text', text: '' };
}

function appendPaste(acc: string, more: string): string {
  if (acc.length >= MAX_PASTE_CHARS) return acc;
  return (acc + more).slice(0, MAX_PASTE_CHARS);
}

/** Pasted text: CRLF and CR become LF; other control characters (but tabs) are dropped. */
export function normalizePaste(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

/**
 * Nothing more arrived after a chunk that ended inside an escape sequence: a lone ESC is the
 * Esc key; any other unfinished sequence is dropped. Call it a moment after the last chunk.
 */
export function flushDecoder(state: DecoderState): { readonly state: DecoderState; readonly keys: readonly Key[] } {
  if (state.paste !== null || state.pending === '') return { state, keys: [] };
  return { state: { paste: null, pending: '' }, keys: state.pending === '\x1b' ? [{ kind: 'escape' }] : [] };
}

/** Decode a whole input at once (tests, scripted input). */
export function decodeAll(chunks: readonly string[]): Key[] {
  let state = INITIAL_DECODER;
  const out: Key[] = [];
  for (const c of chunks) {
    const r = decodeInput(state, c);
    state = r.state;
    out.push(...r.keys);
  }
  out.push(...flushDecoder(state).keys);
  return out.filter((k) => !(k.kind === 'text' && k.text === ''));
}
