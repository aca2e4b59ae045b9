/**
 * What a write or edit would change, for a person approving it: a unified line diff of the
 * file as it is against the file as the call would leave it, or the new file's content. Built
 * once here so every surface shows the same thing. Bounded: a few hundred lines of a few
 * hundred characters; the text is data to show as text, never markup.
 */

/** Bounds of a preview, each in its unit. */
export interface PreviewBounds {
  /** Lines of the preview text (hunk headers included). */
  readonly maxLines: number;
  /** Code points of one line; a longer line is cut and ends with `…`. */
  readonly maxLineChars: number;
  /** Code points of the whole preview text (newlines included). */
  readonly maxChars: number;
}

export const PREVIEW_BOUNDS: PreviewBounds = { maxLines: 300, maxLineChars: 400, maxChars: 32_000 };

/** Lines between the changed blocks compared exactly; above this a changed block is shown as all removed, then all added. */
const MAX_DIFF_CELLS = 1_000_000;
const CONTEXT = 3;

/**
 * A write's preview: `diff` for a file that exists (unified hunks: `@@ -a,b +c,d @@`, then lines
 * starting with ` `, `-` or `+`), `create` for a new file (its content), or `none` with why
 * there is nothing to show (the file is too large, unreadable, or the edit would fail).
 */
export interface WritePreview {
  readonly path: string;
  readonly kind: 'diff' | 'create' | 'none';
  readonly text: string;
  /** Lines the call adds and removes (counted over the whole change, not only what is shown). */
  readonly added: number;
  readonly removed: number;
  /** True when the text was cut to the bounds. */
  readonly truncated: boolean;
  /** `none`: why there is no preview. */
  readonly note: string | null;
}

type Op = { readonly op: ' ' | '-' | '+'; readonly line: string };

const splitLines = (text: string): string[] => {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** The edit script from `a` to `b` (lines): common ends kept, the middle by LCS when small enough. */
export function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((line) => ({ op: ' ', line }));
  const n = endA - start;
  const m = endB - start;
  if (n * m > MAX_DIFF_CELLS || n === 0 || m === 0) {
    for (let i = start; i < endA; i++) ops.push({ op: '-', line: a[i]! });
    for (let j = start; j < endB; j++) ops.push({ op: '+', line: b[j]! });
  } else {
    // lcs[i][j]: the longest common subsequence of a[start+i..endA) and b[start+j..endB).
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) lcs[i * w + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[start + i] === b[start + j]) {
        ops.push({ op: ' ', line: a[start + i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) ops.push({ op: '-', line: a[start + i++]! });
      else ops.push({ op: '+', line: b[start + j++]! });
    }
    while (i < n) ops.push({ op: '-', line: a[start + i++]! });
    while (j < m) ops.push({ op: '+', line: b[start + j++]! });
  }
  for (let i = endA; i < a.length; i++) ops.push({ op: ' ', line: a[i]! });
  return ops;
}

/** Unified hunks of an edit script, with {@link CONTEXT} lines around each change. */
function hunks(ops: readonly Op[]): string[] {
  const out: string[] = [];
  const changed = ops.map((o, k) => (o.op === ' ' ? -1 : k)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(0, changed[k]! - CONTEXT);
    let to = changed[k]! + CONTEXT;
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= to + 1) to = changed[++k]! + CONTEXT;
    to = Math.min(ops.length - 1, to);
    k++;
    let lineA = 1;
    let lineB = 1;
    for (let x = 0; x < from; x++) {
      if (ops[x]!.op !== '+') lineA++;
      if (ops[x]!.op !== '-') lineB++;
    }
    const body = ops.slice(from, to + 1);
    const countA = body.filter((o) => o.op !== '+').length;
    const countB = body.filter((o) => o.op !== '-').length;
    out.push(`@@ -${countA === 0 ? lineA - 1 : lineA},${countA} +${countB === 0 ? lineB - 1 : lineB},${countB} @@`);
    for (const o of body) out.push(`${o.op}${o.line}`);
  }
  return out;
}

/** `lines` cut to the bounds: `{ text, truncated }`, lines and characters counted in code points. */
export function boundLines(lines: readonly string[], bounds: PreviewBounds = PREVIEW_BOUNDS): { text: string; truncated: boolean } {
  const kept: string[] = [];
  let chars = 0;
  let truncated = false;
  for (const raw of lines) {
    if (kept.length >= bounds.maxLines) {
      truncated = true;
      break;
    }
    const points = Array.from(raw);
    let line = raw;
    if (points.length > bounds.maxLineChars) {
      line = `${points.slice(0, Math.max(0, bounds.maxLineChars - 1)).join('')}…`;
      truncated = true;
    }
    const cost = Array.from(line).length + (kept.length > 0 ? 1 : 0);
    if (chars + cost > bounds.maxChars) {
      truncated = true;
      break;
    }
    kept.push(line);
    chars += cost;
  }
  return { text: kept.join('\n'), truncated };
}

/** The preview of replacing `before` (`null`: no such file) with `after`. */
export function previewChange(path: string, before: string | null, after: string, bounds: PreviewBounds = PREVIEW_BOUNDS): WritePreview {
  const b = splitLines(after);
  if (before === null) {
    const { text, truncated } = boundLines(b, bounds);
    return { path, kind: 'create', text, added: b.length, removed: 0, truncated, note: null };
  }
  const ops = diffLines(splitLines(before), b);
  const { text, truncated } = boundLines(hunks(ops), bounds);
  return {
    path,
    kind: 'diff',
    text,
    added: ops.filter((o) => o.op === '+').length,
    removed: ops.filter((o) => o.op === '-').length,
    truncated,
    note: before === after ? 'the file would not change' : null,
  };
}

/** The file as an `edit` call's edits would leave it (the edit tool's own rules), or why they would fail. */
export function applyEdits(original: string, edits: readonly { old_text: string; new_text: string; replace_all?: boolean }[]): { ok: true; text: string } | { ok: false; reason: string } {
  let next = original;
  for (const [i, e] of edits.entries()) {
    const count = original.split(e.old_text).length - 1;
    if (count === 0) return { ok: false, reason: `edit ${i + 1}: old_text not found` };
    if (count > 1 && !e.replace_all) return { ok: false, reason: `edit ${i + 1}: old_text occurs ${count} times; make it unique or set replace_all` };
    next = e.replace_all ? next.split(e.old_text).join(e.new_text) : next.replace(e.old_text, () => e.new_text);
  }
  return { ok: true, text: next };
}

/** What reading the target file gave: its text, no such file, or why it cannot be shown. */
export type PreviewRead = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'missing' } | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * The preview of a `write` or `edit` call (`null` for any other tool, or an input that is not
 * one of theirs). `read` gives the file's current content (bounded by the caller).
 */
export function previewWrite(tool: string, input: unknown, read: (path: string) => PreviewRead, bounds: PreviewBounds = PREVIEW_BOUNDS): WritePreview | null {
  if (tool !== 'write' && tool !== 'edit') return null;
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const path = o['path'];
  if (typeof path !== 'string') return null;
  const none = (note: string): WritePreview => ({ path, kind: 'none', text: '', added: 0, removed: 0, truncated: false, note });
  const current = read(path);
  if (current.kind === 'unreadable') return none(current.reason);
  if (tool === 'write') {
    if (typeof o['content'] !== 'string') return null;
    return previewChange(path, current.kind === 'text' ? current.text : null, o['content'], bounds);
  }
  if (!Array.isArray(o['edits'])) return null;
  if (current.kind === 'missing') return none('the file does not exist, so the edit would fail');
  const edited = applyEdits(current.text, o['edits'] as { old_text: string; new_text: string; replace_all?: boolean }[]);
  if (!edited.ok) return none(`the edit would fail: ${edited.reason}`);
  return previewChange(path, current.text, edited.text, bounds);
}
