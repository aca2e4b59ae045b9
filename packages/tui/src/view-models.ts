import type { ActiveHook, Mode, Posture, SessionSnapshot, SubagentInfo } from '@codewhale/engine';
import { oneLine } from './text-bounds.js';

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
