import { sanitizeLine, sanitizeText } from '@codewhale/hooks-payloads';

/** How much of a large text the transcript lays out: the first and last lines, with a marker between. */
export interface CutLimits {
  readonly headLines: number;
  readonly tailLines: number;
  /** Characters (code points) kept per line; longer lines end with `…`. */
  readonly lineChars: number;
  /** Characters (code points) kept overall before lines are split (bounds the work on a 10 MB output). */
  readonly maxChars: number;
}

export const DEFAULT_CUT: CutLimits = { headLines: 8, tailLines: 8, lineChars: 400, maxChars: 64 * 1024 };

export interface CutText {
  readonly lines: readonly string[];
  /** Lines left out between head and tail (0 when nothing was cut). */
  readonly omittedLines: number;
  readonly cut: boolean;
}

const clipLine = (line: string, max: number): string => {
  if (line.length <= max) return line;
  const chars = Array.from(line);
  return chars.length <= max ? line : `${chars.slice(0, Math.max(0, max - 1)).join('')}\u2026`;
};

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Cut a (possibly huge) text to head + tail lines before anything lays it out. Only the first
 * and last `maxChars / 2` characters are ever split into lines, so the cost is bounded whatever
 * the input's size. Control characters are stripped (tabs become spaces).
 */
export function cutText(text: string, limits: CutLimits = DEFAULT_CUT): CutText {
  const half = Math.floor(limits.maxChars / 2);
  let head: string[];
  let tail: string[];
  let middleLines = 0;
  if (text.length > limits.maxChars) {
    const a = text.slice(0, half);
    const b = text.slice(text.length - half);
    head = a.split('\n');
    tail = b.split('\n');
    // The partial lines at the cut are kept as they are; count the whole lines in the middle.
    middleLines = countNewlines(text, half, text.length - half);
    const all = head.length + tail.length;
    if (all <= limits.headLines + limits.tailLines) {
      // Few very long lines: still show a marker between the two halves.
      const lines = [...head.slice(0, limits.headLines), ...tail.slice(-limits.tailLines)].map((l) => clipLine(cleanLine(l), limits.lineChars));
      return { lines: insertMarker(lines, Math.min(head.length, limits.headLines), Math.max(1, middleLines)), omittedLines: Math.max(1, middleLines), cut: true };
    }
  } else {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    if (lines.length <= limits.headLines + limits.tailLines) {
      return { lines: lines.map((l) => clipLine(cleanLine(l), limits.lineChars)), omittedLines: 0, cut: false };
    }
    head = lines;
    tail = lines;
  }
  const kept = [...head.slice(0, limits.headLines), ...tail.slice(-limits.tailLines)].map((l) => clipLine(cleanLine(l), limits.lineChars));
  const totalLines = text.length > limits.maxChars ? head.length + tail.length + middleLines - 1 : head.length;
  const omitted = Math.max(1, totalLines - limits.headLines - limits.tailLines);
  return { lines: insertMarker(kept, limits.headLines, omitted), omittedLines: omitted, cut: true };
}

/** The agent's own marker where it kept only the head and the tail of a long command output. */
const AGENT_OMITTED = /\n\[\u2026 (\d+) bytes of output omitted \u2026\]\n/;

const splitLines = (t: string): string[] => {
  const l = t.split('\n');
  if (l.length > 1 && l[l.length - 1] === '') l.pop();
  return l;
};

/**
 * A tool's output cut to head and tail lines, with a true count of the lines not shown. When the
 * agent itself kept only the head and tail of the output (its `[… N bytes of output omitted …]`
 * marker), the lines it dropped are counted too: `omittedLines` is the number of line breaks it
 * dropped (the tool result's `omitted_lines`), or `null` when unknown, and then the marker also
 * names the bytes. Pure.
 */
export function cutToolOutput(content: string, omittedLines: number | null, limits: CutLimits = DEFAULT_CUT): CutText {
  const m = AGENT_OMITTED.exec(content);
  if (!m) return cutText(content, limits);
  // (The head's last piece is the start of a line that goes on in the dropped middle, even when empty.)
  const head = content.slice(0, m.index).split('\n');
  const tail = splitLines(content.slice(m.index + m[0].length));
  const keptHead = head.slice(0, limits.headLines);
  const keptTail = limits.tailLines > 0 ? tail.slice(Math.max(0, tail.length - limits.tailLines)) : [];
  // The head's last line and the tail's first are two parts of one line when no line break was dropped.
  const dropped = omittedLines === null ? 0 : omittedLines - 1;
  const omitted = Math.max(0, head.length - keptHead.length + (tail.length - keptTail.length) + dropped);
  const bytes = omittedLines === null ? ` (and ${m[1]} bytes the agent did not keep)` : '';
  const marker = `\u2026 ${omitted} line${omitted === 1 ? '' : 's'} not shown${bytes} \u2026`;
  const clip = (l: string) => clipLine(cleanLine(l), limits.lineChars);
  return { lines: [...keptHead.map(clip), marker, ...keptTail.map(clip)], omittedLines: omitted, cut: true };
}

function insertMarker(lines: string[], at: number, omitted: number): string[] {
  return [...lines.slice(0, at), `\u2026 ${omitted} line${omitted === 1 ? '' : 's'} not shown \u2026`, ...lines.slice(at)];
}

function cleanLine(line: string): string {
  return sanitizeLine(line.replace(/\r$/, '')).text;
}

/**
 * Prose (an answer, reasoning, a message) as display lines, whole: every line kept, none
 * shortened, control characters stripped (tabs become spaces). The terminal wraps them.
 */
export function proseLines(text: string): string[] {
  return text.split('\n').map(cleanLine);
}

/** One display line from any text (hook label, reason, preview): control-stripped, bounded. */
export function oneLine(text: string, maxChars = 200): string {
  return sanitizeLine(text, maxChars).text;
}

/** Multi-line display text: control characters stripped (newlines kept), bounded. */
export function safeText(text: string, maxChars = 4000): string {
  return sanitizeText(text, maxChars).text;
}
