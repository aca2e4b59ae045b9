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
  remember: z.boolean().optional().describe('allow: also allow this tool for the rest of the session'),
});

export const EventsQuery = z.strictObject({
  since_seq: z
    .string()
    .regex(/^\d{1,15}$/, 'a non-negative integer')
    .optional(),
});

export const HooksQuery = z.strictObject({ thread_id: z.string().min(1).max(100).optional() });

// ---- responses (documented, not validated) ----

export const ApprovalJson = z.object({
  id: z.string(),
  thread_id: z.string(),
  turn_id: z.string(),
  item_id: z.string().nullable(),
  tool: z.string(),
  reason: z.enum(['posture', 'hook', 'permission']),
  summary: z.string(),
  status: z.enum(['pending', 'decided', 'expired']),
  decision: z.enum(['allow', 'deny']).nullable(),
  remember: z.boolean(),
  requested_at: z.string(),
  expires_at: z.string(),
  decided_at: z.string().nullable(),
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
  created_at: z.string(),
  updated_at: z.string(),
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
  usage: z.unknown(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});

export const ItemJson = z.object({
  id: z.string(),
  thread_id: z.string(),
  turn_id: z.string(),
  kind: z.enum(['user_message', 'agent_message', 'agent_reasoning', 'tool_call', 'error', 'status']),
  status: z.enum(['in_progress', 'completed', 'failed', 'interrupted']),
  summary: z.string().max(280),
  detail: z.string().nullable(),
  metadata: z.unknown(),
  decision: z.unknown().describe('tool_call: the tool_call_before decision record'),
  created_at: z.string(),
  updated_at: z.string(),
});

export const EventEnvelope = z.object({
  schema_version: z.literal(1),
  seq: z.number().int(),
  event: z.string(),
  thread_id: z.string(),
  turn_id: z.string().nullable(),
  item_id: z.string().nullable(),
  created_at: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

export const ErrorJson = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
  }),
});
