/**
 * The event catalogue as data: one row per lifecycle event, in the documented order.
 * Conditions' load-time checks, environment building, stdin documents, `hooks events` and
 * the docs all read this table. A new event is one row, and defaults to observer.
 */

/** The 15 event names, in documented order. */
export const HOOK_EVENT_NAMES = [
  'session_start',
  'session_end',
  'turn_end',
  'message_submit',
  'tool_call_before',
  'tool_call_after',
  'mode_change',
  'on_error',
  'subagent_spawn',
  'subagent_complete',
  'shell_env',
  'session_idle',
  'session_error',
  'waiting_for_user',
  'session_busy',
] as const;

export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/**
 * How an event's hooks can affect Codewhale. Only three events steer; every other event is
 * an observer, whose result is ignored.
 * - `transform`: `message_submit` may replace or block the text;
 * - `gate`: `tool_call_before` may allow / deny / ask, rewrite input, add context;
 * - `env`: `shell_env` contributes environment variables to one shell call.
 */
export type SteeringClass = 'observer' | 'transform' | 'gate' | 'env';

/** Who fires the event, which decides the `DEEPSEEK_MODE` spelling (`ACT` vs `Agent`). */
export type FiredBy = 'ui' | 'engine';

/** What a hook's failure does to the later hooks of the same event. */
export type FailurePolicy =
  /** `continue_on_error = false` on a failing hook stops the later hooks (execute path). */
  | 'stop-on-strict-failure'
  /** Every matching hook always runs (structured observers, `shell_env`). */
  | 'always-continue'
  /** `message_submit`: a strict failure blocks the submission. */
  | 'block-on-strict-failure';

/** The stdin document an event's hooks receive (`none` means EOF at once). */
export type StdinDocumentKind = 'none' | 'message_submit' | 'turn_end' | 'subagent_spawn' | 'subagent_complete' | 'session_state' | 'session_error' | 'tool_call_after_receipt';

/** Names of the environment variables a hook can receive. */
export type HookEnvVar =
  | 'DEEPSEEK_SESSION_ID'
  | 'DEEPSEEK_WORKSPACE'
  | 'DEEPSEEK_MODEL'
  | 'DEEPSEEK_MODE'
  | 'DEEPSEEK_TOTAL_TOKENS'
  | 'DEEPSEEK_MESSAGE'
  | 'DEEPSEEK_ERROR'
  | 'DEEPSEEK_PREVIOUS_MODE'
  | 'DEEPSEEK_TOOL_NAME'
  | 'DEEPSEEK_TOOL_CALL_ID'
  | 'DEEPSEEK_TOOL_ARGS'
  | 'DEEPSEEK_TOOL_RESULT'
  | 'DEEPSEEK_TOOL_SUCCESS'
  | 'DEEPSEEK_TOOL_EXIT_CODE'
  | 'DEEPSEEK_TOOL_STATUS'
  | 'DEEPSEEK_TOOL_EXECUTION_RECEIPT'
  | 'DEEPSEEK_SESSION_COST';

/** What context an event carries; decides which conditions can ever match it. */
export interface EventCarries {
  /** Tool name, call id, category: `tool_name` / `tool_category` conditions. */
  readonly toolIdentity: boolean;
  /** A mode string: `mode` conditions. */
  readonly mode: boolean;
  /** A process exit code the tool reported: `exit_code` conditions. */
  readonly exitCode: boolean;
}

export interface HookEventSpec {
  readonly name: HookEventName;
  readonly steering: SteeringClass;
  readonly firedBy: FiredBy;
  readonly failurePolicy: FailurePolicy;
  readonly carries: EventCarries;
  /** Environment variables this event's hooks may receive (a variable is set only when its value is known). */
  readonly env: readonly HookEnvVar[];
  readonly stdin: StdinDocumentKind;
  /** One line for `hooks events`. */
  readonly description: string;
}

const BASE: readonly HookEnvVar[] = ['DEEPSEEK_SESSION_ID', 'DEEPSEEK_WORKSPACE', 'DEEPSEEK_MODEL', 'DEEPSEEK_MODE'];
const UI_BASE: readonly HookEnvVar[] = [...BASE, 'DEEPSEEK_TOTAL_TOKENS', 'DEEPSEEK_SESSION_COST'];
const TOOL_SETTLED: readonly HookEnvVar[] = [
  'DEEPSEEK_TOOL_NAME',
  'DEEPSEEK_TOOL_CALL_ID',
  'DEEPSEEK_TOOL_RESULT',
  'DEEPSEEK_TOOL_SUCCESS',
  'DEEPSEEK_TOOL_EXIT_CODE',
  'DEEPSEEK_TOOL_STATUS',
  'DEEPSEEK_TOOL_EXECUTION_RECEIPT',
];

const NO_TOOL = { toolIdentity: false, mode: true, exitCode: false } as const;

function observer(
  name: HookEventName,
  description: string,
  stdin: StdinDocumentKind,
  env: readonly HookEnvVar[] = UI_BASE,
  failurePolicy: FailurePolicy = stdin === 'none' || stdin === 'tool_call_after_receipt' ? 'stop-on-strict-failure' : 'always-continue',
  carries: EventCarries = NO_TOOL,
): HookEventSpec {
  return { name, steering: 'observer', firedBy: 'ui', failurePolicy, carries, env, stdin, description };
}

/** The catalogue, in documented order. */
export const HOOK_EVENT_CATALOGUE: readonly HookEventSpec[] = [
  observer('session_start', 'fires once when a session starts, before the first prompt', 'none'),
  observer('session_end', 'fires once on graceful shutdown', 'none'),
  observer('turn_end', 'fires after a turn completes and post-turn state is updated (observer-only)', 'turn_end'),
  {
    name: 'message_submit',
    steering: 'transform',
    firedBy: 'ui',
    failurePolicy: 'block-on-strict-failure',
    carries: NO_TOOL,
    env: [...UI_BASE, 'DEEPSEEK_MESSAGE'],
    stdin: 'message_submit',
    description: 'fires before a submitted message reaches history or the model; can transform or block submitted text',
  },
  {
    name: 'tool_call_before',
    steering: 'gate',
    firedBy: 'engine',
    failurePolicy: 'stop-on-strict-failure',
    carries: { toolIdentity: true, mode: true, exitCode: false },
    env: [...BASE, 'DEEPSEEK_SESSION_COST', 'DEEPSEEK_TOOL_NAME', 'DEEPSEEK_TOOL_CALL_ID', 'DEEPSEEK_TOOL_ARGS'],
    stdin: 'none',
    description: 'fires before each tool call; can allow/deny/ask, rewrite input, add context',
  },
  observer('tool_call_after', 'fires after each tool call settles (observer-only)', 'tool_call_after_receipt', [...UI_BASE, ...TOOL_SETTLED], 'stop-on-strict-failure', {
    toolIdentity: true,
    mode: true,
    exitCode: true,
  }),
  observer('mode_change', 'fires on every applied Plan/Work/Operate transition', 'none', [...UI_BASE, 'DEEPSEEK_PREVIOUS_MODE']),
  observer('on_error', 'fires on transport, capacity and auth errors, and on tool failures', 'none', [...UI_BASE, 'DEEPSEEK_ERROR', ...TOOL_SETTLED], 'stop-on-strict-failure', {
    toolIdentity: true,
    mode: true,
    exitCode: true,
  }),
  observer('subagent_spawn', 'fires when a sub-agent starts (observer-only)', 'subagent_spawn', [...UI_BASE, 'DEEPSEEK_MESSAGE']),
  observer('subagent_complete', 'fires when a sub-agent completes, fails, or is cancelled (observer-only)', 'subagent_complete', [...UI_BASE, 'DEEPSEEK_MESSAGE']),
  {
    name: 'shell_env',
    steering: 'env',
    firedBy: 'engine',
    failurePolicy: 'always-continue',
    carries: { toolIdentity: true, mode: false, exitCode: false },
    env: ['DEEPSEEK_TOOL_NAME', 'DEEPSEEK_TOOL_ARGS'],
    stdin: 'none',
    description: 'fires before each shell command; stdout KEY=VALUE lines are merged into its environment',
  },
  observer('session_idle', 'fires when the session settles back to idle with nothing outstanding (observer-only)', 'session_state'),
  observer('session_error', 'fires when a turn ends in a terminal failure (observer-only)', 'session_error'),
  observer('waiting_for_user', 'fires when the agent starts waiting on you: an approval, a question, or a parked goal continuation (observer-only)', 'session_state'),
  observer('session_busy', 'fires when an idle or waiting session begins or resumes work (observer-only)', 'session_state'),
];

const BY_NAME = new Map<string, HookEventSpec>(HOOK_EVENT_CATALOGUE.map((e) => [e.name, e]));

/** True when `name` is one of the 15 event names (exact, case-sensitive). */
export function isHookEventName(name: unknown): name is HookEventName {
  return typeof name === 'string' && BY_NAME.has(name);
}

/** The catalogue row for `name`. */
export function eventSpec(name: HookEventName): HookEventSpec {
  const spec = BY_NAME.get(name);
  if (!spec) throw new TypeError(`unknown hook event: ${String(name)}`);
  return spec;
}

/** The steering allowlist: exactly the events whose hooks can change what happens next. */
export const STEERING_EVENTS: readonly HookEventName[] = HOOK_EVENT_CATALOGUE.filter((e) => e.steering !== 'observer').map((e) => e.name);

/** True for `message_submit`, `tool_call_before` and `shell_env`, false for every observer. */
export function isSteeringEvent(name: HookEventName): boolean {
  return eventSpec(name).steering !== 'observer';
}
