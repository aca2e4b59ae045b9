import type { ActiveHook, ApprovalRequest, Mode, Posture, SessionSnapshot, SubagentInfo } from '@codewhale/engine';
import type { Row } from './live-layout.js';
import { oneLine, safeText } from './text-bounds.js';

/** A gate or message_submit hook shows in the status row only once it has run this long (quiet fast hooks never flash). */
export const HOOK_SHOW_AFTER_MS = 300;

export const MODES: readonly Mode[] = ['plan', 'work', 'operate'];
export const POSTURES: readonly Posture[] = ['ask', 'auto_review', 'full_access'];

export const nextMode = (m: Mode): Mode => MODES[(MODES.indexOf(m) + 1) % MODES.length]!;
export const nextPosture = (p: Posture): Posture => POSTURES[(POSTURES.indexOf(p) + 1) % POSTURES.length]!;

export function modeLabel(m: Mode): string {
  return m === 'plan' ? 'Plan' : m === 'work' ? 'Work' : 'Operate';
}

export function postureLabel(p: Posture): string {
  return p === 'ask' ? 'Ask' : p === 'auto_review' ? 'Auto-Review' : 'Full Access';
}

/** `name (i/n)` for a running hook, or `null` while it is younger than {@link HOOK_SHOW_AFTER_MS}. */
export function hookActivity(hook: ActiveHook | null, now: number): string | null {
  if (!hook || now - hook.startedAt < HOOK_SHOW_AFTER_MS) return null;
  return `${hook.event} hook ${oneLine(hook.label, 64)} (${hook.index}/${hook.total})`;
}

/** The one-line status row: state, mode, posture, model, queue, todos, totals. */
export function statusLine(s: SessionSnapshot, now: number): string {
  const parts: string[] = [];
  const hook = hookActivity(s.activeHook, now);
  if (hook) parts.push(`\u23f3 ${hook}`);
  else if (s.state === 'waiting') parts.push(s.reason === 'approval' ? '\u25d0 waiting for approval' : '\u25d0 waiting for your answer');
  else if (s.busy) parts.push('\u25cf working (Esc to cancel)');
  else parts.push('\u25cb idle');
  parts.push(modeLabel(s.mode), postureLabel(s.posture), oneLine(s.model || s.provider, 40));
  if (s.queuedCount > 0) parts.push(`${s.queuedCount} queued`);
  const open = s.todos.filter((t) => t.status !== 'completed').length;
  if (s.todos.length) parts.push(`todo ${s.todos.length - open}/${s.todos.length}`);
  parts.push(`${s.totals.sessionTokens} tok`);
  return parts.join(' \u00b7 ');
}

const GLYPH: Record<SubagentInfo['status'], string> = { running: '\u25cf', completed: '\u25cb', failed: '\u2717', cancelled: '\u2298' };

/** One row per sub-agent, with its state glyph (`/agents` and the roster). */
export function agentRows(agents: readonly SubagentInfo[]): string[] {
  if (agents.length === 0) return ['no sub-agents in this session'];
  return agents.map((a) => `${GLYPH[a.status] ?? '?'} ${oneLine(a.name ?? a.agentId, 40)} ${a.status} \u2014 ${oneLine(a.prompt, 80)}${a.result ? ` \u2192 ${oneLine(a.result, 80)}` : ''}`);
}

const SHELL_TOOLS = new Set(['bash', 'Bash', 'exec_shell']);
/** Lines of a write or edit shown in the approval modal. */
export const PREVIEW_LINES = 8;

function previewLines(text: string, sign: string, max: number): Row[] {
  const lines = safeText(text, 4000).split('\n');
  const rows: Row[] = lines.slice(0, max).map((l) => ({ text: `${sign} ${l}`, color: sign === '+' ? 'green' : sign === '-' ? 'red' : 'gray' }));
  if (lines.length > max) rows.push({ text: `  \u2026 ${lines.length - max} more line${lines.length - max === 1 ? '' : 's'}`, color: 'gray' });
  return rows;
}

/**
 * The approval modal, as rows: who asks and why (the hook's name and its reason, or the rule or
 * posture), the exact command (whole; a hook's rewrite marked, with the original), a preview
 * of a write or an edit, and the key hint (always the last row). Pure.
 */
export function approvalRows(r: ApprovalRequest, always: boolean): Row[] {
  const d = r.decision ?? null;
  const asker = d?.hooks.find((h) => h.outcome === 'ask') ?? null;
  const rows: Row[] = [];
  if (r.reason === 'hook') rows.push({ text: asker ? `The hook \u201c${oneLine(asker.label, 64)}\u201d asks for approval` : 'A hook asks for approval', bold: true, color: 'yellow' });
  else if (r.reason === 'permission') rows.push({ text: 'A rule in permissions.toml asks for approval', bold: true, color: 'yellow' });
  else rows.push({ text: 'Approve this tool call?', bold: true, color: 'yellow' });
  if (asker?.detail) rows.push({ text: `reason: ${oneLine(asker.detail, 300)}`, color: 'yellow' });
  const input = (r.input && typeof r.input === 'object' ? r.input : {}) as Record<string, unknown>;
  const rewrittenBy = d && d.input.rewritten !== null ? d.hooks.filter((h) => h.rewroteInput).map((h) => oneLine(h.label, 64)) : [];
  if (SHELL_TOOLS.has(r.tool) && typeof input['command'] === 'string') {
    rows.push({ text: `${oneLine(r.tool, 40)}: ${safeText(input['command'], 4000)}`, bold: true });
  } else if (r.tool === 'write' && typeof input['path'] === 'string') {
    const content = typeof input['content'] === 'string' ? input['content'] : '';
    rows.push({ text: `write ${oneLine(input['path'], 300)} (${content.split('\n').length} lines, ${Buffer.byteLength(content)} bytes)`, bold: true });
    rows.push(...previewLines(content, '+', PREVIEW_LINES));
  } else if (r.tool === 'edit' && typeof input['path'] === 'string') {
    const edits = Array.isArray(input['edits']) ? (input['edits'] as { old_text?: unknown; new_text?: unknown }[]) : [];
    rows.push({ text: `edit ${oneLine(input['path'], 300)} (${edits.length} change${edits.length === 1 ? '' : 's'})`, bold: true });
    for (const e of edits.slice(0, 3)) {
      rows.push(...previewLines(String(e.old_text ?? ''), '-', 3), ...previewLines(String(e.new_text ?? ''), '+', 3));
    }
    if (edits.length > 3) rows.push({ text: `  \u2026 ${edits.length - 3} more changes`, color: 'gray' });
  } else {
    rows.push({ text: oneLine(r.summary || r.tool, 2000), bold: true });
  }
  if (rewrittenBy.length) {
    rows.push({ text: `\u21bb rewritten by ${rewrittenBy.join(', ')} \u2014 the model asked for: ${oneLine(d!.input.original, 600)}`, color: 'magenta' });
  }
  rows.push({ text: `y allow once \u00b7 a allow for this session${always ? ' \u00b7 A always (permissions rule)' : ''} \u00b7 n / Esc deny`, color: 'gray' });
  return rows;
}
