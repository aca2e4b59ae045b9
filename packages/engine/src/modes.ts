import { canonicalMode, engineModeSpelling, uiModeLabel, type CanonicalMode } from '@codewhale/hooks-payloads';

/** Plan / Work / Operate. `act`, `agent`, `auto` and `yolo` are accepted spellings of Work. */
export type Mode = CanonicalMode;

/**
 * Approval postures:
 * - `ask`: prompts before shell commands and file writes;
 * - `auto_review`: never asks a question; a deterministic floor allows safe and ordinary
 *   calls and refuses dangerous shell commands (fail closed); a hook's `ask` still prompts;
 * - `full_access`: no tool-approval prompts at all; a hook's `ask` does not downgrade it.
 */
export type Posture = 'ask' | 'auto_review' | 'full_access';

export function parseMode(value: string): Mode | null {
  return canonicalMode(value);
}

const POSTURES: Record<string, Posture> = {
  ask: 'ask',
  suggest: 'ask',
  'on-request': 'ask',
  untrusted: 'ask',
  auto: 'auto_review',
  'auto-review': 'auto_review',
  auto_review: 'auto_review',
  bypass: 'full_access',
  'full-access': 'full_access',
  full_access: 'full_access',
  yolo: 'full_access',
};

export function parsePosture(value: string): Posture | null {
  return POSTURES[value.trim().toLowerCase()] ?? null;
}

export { uiModeLabel, engineModeSpelling };

/** How a mode is shown to people: `Plan`, `Work`, `Operate`. */
export function modeTitle(mode: Mode): string {
  return mode === 'plan' ? 'Plan' : mode === 'work' ? 'Work' : 'Operate';
}

export function postureTitle(posture: Posture): string {
  return posture === 'ask' ? 'Ask' : posture === 'auto_review' ? 'Auto-Review' : 'Full Access';
}
