/** The three canonical modes. `act`, `agent`, `work`, `auto` and `yolo` all mean Work (D9). */
export type CanonicalMode = 'plan' | 'work' | 'operate';

const ALIASES: Record<string, CanonicalMode> = {
  plan: 'plan',
  work: 'work',
  act: 'work',
  agent: 'work',
  auto: 'work',
  yolo: 'work',
  operate: 'operate',
};

/** The canonical mode for any accepted spelling (ASCII case-insensitive), or `null`. */
export function canonicalMode(mode: string | null | undefined): CanonicalMode | null {
  if (mode == null) return null;
  return ALIASES[mode.trim().replace(/[A-Z]/g, (c) => c.toLowerCase())] ?? null;
}

/** The UI label UI-fired events put in `DEEPSEEK_MODE`: `ACT`, `PLAN`, `OPERATE`. */
export function uiModeLabel(mode: CanonicalMode): 'ACT' | 'PLAN' | 'OPERATE' {
  return mode === 'work' ? 'ACT' : mode === 'plan' ? 'PLAN' : 'OPERATE';
}

/** The engine spelling `tool_call_before` puts in `DEEPSEEK_MODE`: `Agent`, `Plan`, `Operate`. */
export function engineModeSpelling(mode: CanonicalMode): 'Agent' | 'Plan' | 'Operate' {
  return mode === 'work' ? 'Agent' : mode === 'plan' ? 'Plan' : 'Operate';
}

/** The spelling an event fired by `firedBy` reports; an unknown mode string is passed through. */
export function modeSpellingFor(firedBy: 'ui' | 'engine', mode: string): string {
  const canonical = canonicalMode(mode);
  if (!canonical) return mode;
  return firedBy === 'ui' ? uiModeLabel(canonical) : engineModeSpelling(canonical);
}
