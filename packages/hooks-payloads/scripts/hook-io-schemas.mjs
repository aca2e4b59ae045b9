// The JSON Schemas (draft 2020-12) of what a hook reads and prints: the stdin document of each
// event that has one, and the JSON decision the two steering events accept on stdout.
// `shell_env` prints `KEY=VALUE` lines, not JSON, and the other events take their input from
// environment variables only, so they have none.
//
// This package builds and parses those documents by hand (it has no dependencies and sits on
// every hook's path), so the shapes are described here once, in zod, for the schemas alone.
// checks/hook-io-schema.test.ts holds them to the code: every document the builders produce
// validates, and the stdout parsers accept exactly what the stdout schemas allow.
import { z } from 'zod';

/**
 * @param {{ steeringFieldMaxChars: number, updatedInputMaxBytes: number, messageSubmitReplacementMaxChars: number,
 *   messageSubmitDocumentMaxBytes: number, toolCallAfterDocumentMaxBytes: number, subagentPreviewMaxBytes: number,
 *   turnErrorMaxChars: number }} LIMITS the package's bounds (`LIMITS` from `@codewhale/hooks-payloads`)
 * @returns {Record<string, Record<string, unknown>>} file name (under schema/) → JSON Schema
 */
export function hookIoSchemas(LIMITS) {
  const kib = (n) => `${n / 1024} KiB`;
  const count = z.int().min(0);
  const meta = z.string().nullable();
  const mode = z.string().nullable().describe('The UI label of the mode: ACT, PLAN or OPERATE.');

  const stdin = {
    message_submit: z
      .strictObject({
        event: z.literal('message_submit'),
        text: z.string().describe('The submitted text, or its largest UTF-8 prefix that keeps the whole document within the cap.'),
        text_bytes: count.describe('UTF-8 bytes of `text` as sent.'),
        text_original_bytes: count.describe('UTF-8 bytes of the full text.'),
        text_truncated: z.boolean(),
        session_id: meta.optional(),
        workspace: meta.optional(),
        mode: mode.optional(),
        model: meta.optional(),
        total_tokens: count.nullable().optional(),
      })
      .meta({
        description: `The whole document is at most ${kib(LIMITS.messageSubmitDocumentMaxBytes)}. Metadata strings are bounded first, then left out altogether when even the smallest bound does not fit.`,
      }),
    tool_call_after: z
      .strictObject({
        schema_version: z.literal(1),
        event: z.literal('tool_call_after'),
        tool_name: z.string().describe('The shell tool: bash, Bash or exec_shell.'),
        session_id: meta,
        tool_call_id: meta,
        session_id_truncated: z.boolean(),
        tool_call_id_truncated: z.boolean(),
        tool_name_truncated: z.literal(false),
        execution_receipt: z.strictObject({
          schema_version: z.literal(1),
          command: z.string(),
          cwd: z.string().describe('The absolute directory the command started in.'),
          command_truncated: z.literal(false),
          cwd_truncated: z.literal(false),
          execution: z.literal('started'),
          completion: z.enum(['completed', 'failed', 'killed', 'timed_out']).describe('A non-zero exit is `failed`.'),
          exit_code: z.int().nullable().describe('A signed 64-bit integer, or null (signal, kill, timeout).'),
          stdout: z.string(),
          stderr: z.string(),
          stdout_truncated: z.boolean(),
          stderr_truncated: z.boolean(),
          output_mode: z.enum(['separate', 'combined']).describe('`combined`: stdout holds both streams and stderr is empty.'),
        }),
      })
      .meta({
        description: `Only for a settled native shell call with an execution receipt; other calls get no stdin. At most ${kib(LIMITS.toolCallAfterDocumentMaxBytes)}.`,
      }),
    turn_end: z.strictObject({
      event: z.literal('turn_end'),
      session_id: meta,
      workspace: meta,
      mode,
      created_at: z.string().describe('RFC 3339, UTC, with +00:00.'),
      model_backed: z.boolean(),
      provider: meta,
      billing_surface: meta,
      model: meta,
      turn_id: meta,
      status: z.string(),
      error: z.string().nullable().describe(`Sanitized; cut at ${LIMITS.turnErrorMaxChars} characters plus a truncation marker.`),
      duration_ms: count,
      usage: z.strictObject({
        input_tokens: count,
        output_tokens: count,
        prompt_cache_hit_tokens: count.nullable(),
        prompt_cache_miss_tokens: count.nullable(),
        prompt_cache_write_tokens: count.nullable(),
        reasoning_tokens: count.nullable(),
        reasoning_replay_tokens: count.nullable(),
      }),
      totals: z.strictObject({ session_tokens: count, conversation_tokens: count, input_tokens: count, output_tokens: count }),
      tool_count: count,
      queued_message_count: count,
      stop_hook_active: z.literal(false),
    }),
    subagent_spawn: z.strictObject({
      event: z.literal('subagent_spawn'),
      agent_id: meta,
      session_id: meta,
      workspace: meta,
      mode,
      model: meta,
      total_tokens: count.nullable(),
      prompt_preview: z.string().describe(`At most ${kib(LIMITS.subagentPreviewMaxBytes)} plus a truncation marker.`),
      prompt_truncated: z.boolean(),
    }),
    subagent_complete: z.strictObject({
      event: z.literal('subagent_complete'),
      agent_id: meta,
      session_id: meta,
      workspace: meta,
      mode,
      model: meta,
      total_tokens: count.nullable(),
      result_preview: z.string().describe(`At most ${kib(LIMITS.subagentPreviewMaxBytes)} plus a truncation marker.`),
      result_truncated: z.boolean(),
      status: z.string(),
    }),
    session_busy: z.strictObject({ from: z.enum(['idle', 'waiting']), to: z.literal('in_progress') }),
    waiting_for_user: z.strictObject({ from: z.enum(['in_progress', 'idle']), to: z.literal('waiting'), reason: z.enum(['approval', 'user_input', 'goal_continuation']) }),
    session_idle: z.strictObject({ from: z.enum(['in_progress', 'waiting']), to: z.literal('idle'), last_turn_status: z.string().optional() }),
    session_error: z.strictObject({ status: z.string(), error: z.string().describe(`Sanitized; cut at ${LIMITS.turnErrorMaxChars} characters plus a truncation marker.`) }),
  };

  // Printed with exit 0. Unknown keys are ignored, so they are allowed here too.
  const stdout = {
    tool_call_before: z
      .looseObject({
        decision: z.enum(['allow', 'deny', 'ask']).optional().describe('No decision (or no JSON at all) allows.'),
        reason: z.string().optional().describe(`Shown for deny and ask; sanitized and cut at ${LIMITS.steeringFieldMaxChars} characters.`),
        updatedInput: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(`Replaces the tool input (last hook wins) when at most ${kib(LIMITS.updatedInputMaxBytes)} as compact JSON, else ignored; validated again against the tool's schema.`),
        additionalContext: z.string().optional().describe(`Appended to the tool result as [hook context] …; sanitized and cut at ${LIMITS.steeringFieldMaxChars} characters.`),
      })
      .meta({ description: 'Exit 2 denies whatever stdout says.' }),
    message_submit: z
      .looseObject({
        text: z.string().min(1).max(LIMITS.messageSubmitReplacementMaxChars).optional().describe('Replaces the submitted text; without it the text is unchanged.'),
        reason: z.string().optional().describe('With exit 2 (block): the bounded, redacted message shown to the user.'),
      })
      .meta({ description: 'Empty stdout leaves the text unchanged.' }),
  };

  const title = (kind, event) => (kind === 'stdin' ? `Codewhale ${event} hook: stdin document` : `Codewhale ${event} hook: stdout decision`);
  const out = {};
  for (const [kind, schemas] of Object.entries({ stdin, stdout })) {
    for (const [event, schema] of Object.entries(schemas)) {
      const generated = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', reused: 'inline' });
      // zod bounds integers to the safe range; exit codes are 64-bit, counts saturate.
      const json = JSON.parse(JSON.stringify(generated).replace(/,"maximum":9007199254740991|,"minimum":-9007199254740991/g, ''));
      const { $schema, description, ...rest } = json;
      out[`${kind}/${event}.schema.json`] = { $schema, title: title(kind, event), ...(description ? { description } : {}), ...rest };
    }
  }
  return out;
}
