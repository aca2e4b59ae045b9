import { z } from 'zod';

/** Mode spellings accepted on input (`act`, `agent`, `auto` and `yolo` mean Work). */
export const ModeInput = z.enum(['plan', 'work', 'operate', 'act', 'agent', 'auto', 'yolo']);
/** Posture spellings accepted on input. */
export const PostureInput = z.enum(['ask', 'suggest', 'on-request', 'untrusted', 'auto', 'auto-review', 'auto_review', 'bypass', 'full-access', 'full_access', 'yolo']);
const Model = z.string().min(1).max(200);

export const CreateThreadBody = z.strictObject({
  workspace: z.string().min(1).max(4096).optional().describe('an existing directory (default: the server workspace)'),
  mode: ModeInput.optional(),
  posture: PostureInput.optional(),
  model: Model.optional(),
});

export const CreateTurnBody = z.strictObject({
  prompt: z.string().min(1).max(200_000),
  mode: ModeInput.optional(),
  posture: PostureInput.optional(),
  model: Model.optional(),
});

export const SteerBody = z.strictObject({ prompt: z.string().min(1).max(200_000) });

export const ApprovalBody = z.strictObject({
  decision: z.enum(['allow', 'deny']),
  scope: z
    .enum(['once', 'session', 'always'])
    .optional()
    .describe(
      "allow: once (the default), for the rest of the session, or always: write the rule the approval's `always` shows to permissions.toml and apply it at once (422 when no rule can be written)",
    ),
  remember: z.boolean().optional().describe('allow: true is scope "session" (the older spelling)'),
});

/** `POST /v1/session`: the token (typed on the login page) or a one-time login code (`serve --open`). */
export const SessionBody = z.union([z.strictObject({ token: z.string().min(1).max(4096) }), z.strictObject({ code: z.string().min(1).max(200) })]);

const Seq = z.string().regex(/^\d{1,15}$/, 'a non-negative integer');
const Id = z.string().min(1).max(100);

export const EventsQuery = z.strictObject({
  since_seq: Seq.optional().describe('resume after this seq (the Last-Event-ID header wins)'),
});

export const HooksQuery = z.strictObject({ thread_id: Id.optional() });

/** Page size of every list: 1..500, default 100. */
export const PAGE_MAX = 500;
export const PAGE_DEFAULT = 100;
const Limit = z
  .string()
  .regex(/^\d{1,4}$/, 'an integer 1..500')
  .refine((v) => Number(v) >= 1 && Number(v) <= PAGE_MAX, 'an integer 1..500')
  .optional()
  .describe('page size, 1..500 (default 100)');
const Cursor = z.string().min(1).max(64).optional().describe('`next_cursor` of the previous page');

export const PageQuery = z.strictObject({ limit: Limit, cursor: Cursor });
export const ThreadsQuery = z.strictObject({ limit: Limit, cursor: Cursor, archived: z.enum(['true', 'false']).optional().describe('true: archived threads only') });
export const ApprovalsQuery = z.strictObject({
  limit: Limit,
  cursor: Cursor,
  status: z.enum(['pending', 'decided', 'expired']).optional(),
  thread_id: Id.optional(),
});
export const UserInputsQuery = z.strictObject({
  limit: Limit,
  cursor: Cursor,
  status: z.enum(['pending', 'answered', 'expired']).optional(),
  thread_id: Id.optional(),
});

export const UserInputBody = z.strictObject({
  answers: z
    .record(z.string().min(1).max(200), z.union([z.string().max(2_000), z.array(z.string().max(2_000)).max(4)]))
    .describe('by question id: an option label (or free text where allowed), or a list of labels for a multi-select question'),
});

export const EventLogQuery = z.strictObject({ limit: Limit, cursor: Cursor, thread_id: Id.optional() });

// ---- responses (documented, and checked by the tests against what the server sends) ----

const Timestamp = z.string().describe('RFC 3339 with milliseconds and offset');

/** A turn's usage: the sum over its model requests (`null` counts are unknown). */
export const UsageJson = z
  .object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    prompt_cache_hit_tokens: z.number().nullable().optional(),
    prompt_cache_miss_tokens: z.number().nullable().optional(),
    prompt_cache_write_tokens: z.number().nullable().optional(),
    reasoning_tokens: z.number().nullable().optional(),
    reasoning_replay_tokens: z.number().nullable().optional(),
    tool_count: z.number().optional(),
    duration_ms: z.number().optional(),
    provider: z.string().optional(),
    model: z.string().optional(),
  })
  .nullable();

/** The `tool_call_before` decision record of a tool call (which hooks matched, what each did, the verdict). */
export const DecisionRecordJson = z
  .object({
    schema_version: z.literal(1),
    tool: z.string(),
    call_id: z.string().nullable(),
    decision: z.enum(['allow', 'deny', 'ask']),
    deny_kind: z.enum(['no_verdict', 'exit_2', 'json_deny']).nullable(),
    message: z.string().nullable(),
    updated_input: z.record(z.string(), z.unknown()).nullable().describe("the rewritten tool input (its keys are the tool's own)"),
    additional_context: z.string().nullable(),
    hooks: z.array(
      z.object({
        index: z.number(),
        label: z.string(),
        source: z.string(),
        strict: z.boolean(),
        background: z.boolean(),
        outcome: z.enum(['allow', 'deny', 'ask', 'deny_exit_2', 'no_decision', 'no_verdict', 'submitted', 'skipped']),
        detail: z.string().nullable(),
        exit_code: z.number().nullable(),
        duration_ms: z.number(),
        rewrote_input: z.boolean(),
        added_context: z.boolean(),
      }),
    ),
    input: z.object({ original: z.string(), rewritten: z.string().nullable() }),
    hook_set_digest: z.string().nullable(),
  })
  .nullable();

export const ApprovalJson = z.object({
  id: z.string(),
  thread_id: z.string(),
  turn_id: z.string(),
  item_id: z.string().nullable(),
  tool: z.string(),
  reason: z.enum(['posture', 'hook', 'permission']),
  summary: z.string(),
  hook: z.object({ name: z.string(), reason: z.string().nullable() }).nullable().describe('reason "hook": the tool_call_before hook that asked, and why'),
  status: z.enum(['pending', 'decided', 'expired']),
  decision: z.enum(['allow', 'deny']).nullable(),
  remember: z.boolean().describe('allowed for the session or always'),
  scope: z.enum(['once', 'session', 'always']).nullable().describe('how a client allowed it; null while pending and for a denial'),
  always: z
    .object({
      rule: z
        .object({ tool: z.string(), command: z.string().nullable(), path: z.string().nullable(), workspace: z.string() })
        .nullable()
        .describe('the `allow` rule scope "always" appends to permissions.toml (secrets shown redacted); null when none can be written'),
      file: z.literal('permissions.toml').describe("the file beside the server's config.toml"),
      reason: z.string().nullable().describe('why no rule can remember this call (a glob character, a command substitution, several commands)'),
    })
    .nullable()
    .describe('what "always" would remember; null for approvals stored by an older server'),
  preview: z
    .object({
      path: z.string(),
      kind: z.enum(['diff', 'create', 'none']).describe('diff: unified hunks against the file as it is; create: the new file; none: see note'),
      text: z.string().describe('plain text, bounded (300 lines of 400 characters, 32,000 in all); invisible characters shown as <U+XXXX>'),
      added: z.number().int(),
      removed: z.number().int(),
      truncated: z.boolean(),
      note: z.string().nullable(),
    })
    .nullable()
    .describe('write and edit calls: what the call would change'),
  requested_at: Timestamp,
  expires_at: Timestamp,
  decided_at: Timestamp.nullable(),
});

export const UserInputJson = z.object({
  id: z.string(),
  thread_id: z.string(),
  turn_id: z.string(),
  item_id: z.string().nullable(),
  questions: z.array(
    z.object({
      id: z.string(),
      header: z.string(),
      question: z.string(),
      options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
      allow_free_text: z.boolean(),
      multi_select: z.boolean(),
    }),
  ),
  status: z.enum(['pending', 'answered', 'expired']),
  answers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullable(),
  requested_at: Timestamp,
  expires_at: Timestamp,
  answered_at: Timestamp.nullable(),
});

export const ThreadJson = z.object({
  id: z.string(),
  session_id: z.string().nullable(),
  workspace: z.string(),
  mode: z.string(),
  posture: z.string(),
  model: z.string().nullable(),
  status: z.enum(['idle', 'active', 'waiting']),
  active_turn_id: z.string().nullable(),
  archived_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  pending_approvals: z.array(ApprovalJson).optional(),
});

export const TurnJson = z.object({
  id: z.string(),
  thread_id: z.string(),
  status: z.enum(['in_progress', 'completed', 'interrupted', 'failed']),
  prompt: z.string(),
  mode: z.string(),
  posture: z.string(),
  model: z.string().nullable(),
  error: z.string().nullable(),
  error_category: z.string().nullable(),
  usage: UsageJson,
  created_at: Timestamp,
  completed_at: Timestamp.nullable(),
});

export const ItemJson = z.object({
  id: z.string(),
  thread_id: z.string(),
  turn_id: z.string(),
  kind: z.enum(['user_message', 'agent_message', 'agent_reasoning', 'tool_call', 'error', 'status']),
  status: z.enum(['in_progress', 'completed', 'failed', 'interrupted']),
  summary: z.string().max(280),
  detail: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  decision: DecisionRecordJson.describe('tool_call: the tool_call_before decision record'),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const envelope = <N extends string, P extends z.ZodType>(name: N, payload: P) =>
  z.object({
    schema_version: z.literal(1),
    seq: z.number().int(),
    event: z.literal(name),
    thread_id: z.string(),
    turn_id: z.string().nullable(),
    item_id: z.string().nullable(),
    created_at: Timestamp,
    payload,
  });

/** Every event of the log, by name: the envelope with its typed payload. */
export const EVENT_SCHEMAS = {
  'thread.started': envelope('thread.started', z.object({ thread: ThreadJson })),
  'thread.archived': envelope('thread.archived', z.object({ thread: ThreadJson })),
  'thread.unarchived': envelope('thread.unarchived', z.object({ thread: ThreadJson })),
  'thread.deleted': envelope('thread.deleted', z.object({ thread_id: z.string() })),
  'turn.started': envelope('turn.started', z.object({ turn: TurnJson })),
  'turn.completed': envelope('turn.completed', z.object({ turn: TurnJson, cause: z.literal('server_restart').optional() })),
  'item.started': envelope('item.started', z.object({ item: ItemJson })),
  'item.delta': envelope('item.delta', z.object({ kind: ItemJson.shape.kind, delta: z.string() })),
  'item.completed': envelope('item.completed', z.object({ item: ItemJson })),
  'item.failed': envelope('item.failed', z.object({ item: ItemJson })),
  'approval.required': envelope('approval.required', z.object({ approval: ApprovalJson })),
  'approval.decided': envelope('approval.decided', z.object({ approval: ApprovalJson, cause: z.enum(['client', 'turn_interrupted', 'auto_review']) })),
  'approval.timeout': envelope('approval.timeout', z.object({ approval: ApprovalJson, cause: z.enum(['expired', 'server_restart', 'turn_ended']) })),
  'user_input.required': envelope('user_input.required', z.object({ user_input: UserInputJson })),
  'user_input.answered': envelope('user_input.answered', z.object({ user_input: UserInputJson, cause: z.literal('client') })),
  'user_input.timeout': envelope('user_input.timeout', z.object({ user_input: UserInputJson, cause: z.enum(['expired', 'turn_ended', 'server_restart']) })),
} as const;

export type EventName = keyof typeof EVENT_SCHEMAS;

/** Any event of the log (discriminated by `event`). */
export const EventEnvelope = z.discriminatedUnion('event', Object.values(EVENT_SCHEMAS) as unknown as [ReturnType<typeof envelope>, ...ReturnType<typeof envelope>[]]);

/** Stream-only control frames (no `id:`): not stored, not in the log. */
export const ServerConnectedJson = z.object({ thread_id: z.string().nullable().describe('null on the global stream'), head_seq: z.number(), cursor: z.number() });
export const StaleCursorJson = z.object({ thread_id: z.string().nullable(), cursor: z.number(), oldest_available_after: z.number(), hint: z.string() });
export const ServerStoppingJson = z.object({ thread_id: z.string().nullable(), last_seq: z.number(), hint: z.string() });

export const ErrorJson = z.object({
  error: z.object({
    code: z.enum([
      'invalid_json',
      'invalid_request',
      'unauthorized',
      'forbidden',
      'not_found',
      'method_not_allowed',
      'conflict',
      'payload_too_large',
      'unprocessable',
      'too_many_requests',
      'unavailable',
      'upstream',
      'server_config',
      'internal',
    ]),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
    head_seq: z.number().optional().describe('409 for a cursor ahead of the event log: the newest seq there is'),
  }),
});

export const HealthJson = z.object({ status: z.enum(['ok', 'stopping']) });
export const RuntimeInfoJson = z.object({
  name: z.literal('codewhale-runtime-api'),
  version: z.string(),
  schema_version: z.number(),
  event_schema_version: z.literal(1),
  auth: z.enum(['none', 'token']),
  hook_events: z.array(z.string()),
  max_concurrent_turns: z.number(),
  approval_timeout_secs: z.number(),
});
const next = z.string().nullable().describe('pass as `cursor` for the next page; null on the last page');
export const ThreadPageJson = z.object({ threads: z.array(ThreadJson), next_cursor: next });
export const ThreadDetailJson = z.object({ thread: ThreadJson, turns: z.array(TurnJson) });
export const ThreadResultJson = z.object({ thread: ThreadJson });
export const SessionJson = z.object({ authenticated: z.boolean(), auth: z.enum(['none', 'token']) });
export const DeletedJson = z.object({ deleted: z.literal(true), thread_id: z.string() });
export const TurnPageJson = z.object({ turns: z.array(TurnJson), next_cursor: next });
export const TurnDetailJson = z.object({ turn: TurnJson, items: z.array(ItemJson) });
export const TurnStartedJson = z.object({ thread: ThreadJson, turn: TurnJson });
export const ItemPageJson = z.object({ items: z.array(ItemJson), next_cursor: next });
export const ApprovalPageJson = z.object({ approvals: z.array(ApprovalJson), next_cursor: next });
export const UserInputPageJson = z.object({ user_inputs: z.array(UserInputJson), next_cursor: next });
export const UserInputResultJson = z.object({ user_input: UserInputJson });
export const ApprovalResultJson = z.object({ approval: ApprovalJson });
export const EventPageJson = z.object({
  events: z.array(EventEnvelope),
  next_cursor: next,
  head_seq: z.number(),
  stale: z.boolean().describe('true: events after the cursor were pruned (re-read the threads)'),
});
export const InterruptedJson = z.object({ interrupted: z.literal(true), turn_id: z.string() });
export const SteeredJson = z.object({ steered: z.boolean(), blocked: z.boolean().optional(), reason: z.string().optional() });
export const HooksJson = z.record(z.string(), z.unknown()).describe('the `codewhale hooks list --json` model');
