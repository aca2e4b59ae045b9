import type { GateDecision, GateDecisionRecord } from '@codewhale/hooks-payloads';

/** What a validator says about one input: the prepared value (defaults filled in) or why not. */
export type ValidationResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: string };

/**
 * A [Standard Schema](https://standardschema.dev) (zod 4, valibot, arktype… implement it): only
 * the part the gate uses.
 */
export interface StandardSchemaLike {
  readonly '~standard': {
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value?: unknown; readonly issues?: readonly { readonly message: string; readonly path?: readonly unknown[] }[] | undefined }
      | PromiseLike<{ readonly value?: unknown; readonly issues?: readonly { readonly message: string; readonly path?: readonly unknown[] }[] | undefined }>;
  };
}

/** How a tool checks an input: a function, or a Standard Schema such as a zod schema. */
export type Validate = ((input: unknown) => ValidationResult | PromiseLike<ValidationResult>) | StandardSchemaLike;

/** The verdict of `tool_call_before` for one call, with every documented rule applied. */
export interface ToolGate {
  /** `allow`: run the tool with {@link ToolGate.input}. `deny`: do not run it; tell the model {@link ToolGate.reason}. `ask`: ask a person first. */
  readonly decision: GateDecision;
  /** For `deny`: the bounded, redacted message for the model. For `ask`: the asking hook's reason (for the prompt), when it gave one. */
  readonly reason: string | null;
  /** The label of the hook that denied or asked. */
  readonly hook: string | null;
  /** The input to run: a hook's rewrite after it passed `validate`, else the (validated) original. */
  readonly input: unknown;
  /** A hook rewrote the input (and the rewrite was accepted). */
  readonly rewritten: boolean;
  /** When a rewrite was refused by `validate`: its issues (the call is then denied). */
  readonly invalidRewrite: string | null;
  /** `additionalContext` of the hooks, appended to the result by `decorate`. */
  readonly context: string | null;
  /**
   * `shell_env` values for a shell tool's command (empty for any other tool). Secret: give
   * them to the command's environment only, never to a log, a transcript or the model.
   */
  readonly env: ReadonlyMap<string, string>;
  /** The decision record (D28): which hooks matched, what each did. Never holds env values. */
  readonly record: GateDecisionRecord;
  /** The caller's signal aborted while the hooks ran: the call is denied. */
  readonly aborted: boolean;
}

const NO_ENV: ReadonlyMap<string, string> = new Map();

const isStandardSchema = (v: Validate): v is StandardSchemaLike => typeof v === 'object' && v !== null && '~standard' in v;

function issuesText(issues: readonly { readonly message: string; readonly path?: readonly unknown[] }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const path = (i.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String((p as { key: unknown }).key) : String(p)));
      return `${path.length ? path.join('.') : '(input)'}: ${i.message}`;
    })
    .join('; ');
}

/** Run a validator, whichever form it takes. A validator that throws refuses the input. */
export async function validateInput(validate: Validate, input: unknown): Promise<ValidationResult> {
  try {
    if (isStandardSchema(validate)) {
      const r = await validate['~standard'].validate(input);
      return r.issues ? { ok: false, issues: issuesText(r.issues) } : { ok: true, value: r.value };
    }
    return await validate(input);
  } catch (e) {
    return { ok: false, issues: e instanceof Error ? e.message : String(e) };
  }
}

/** The row of the hook that decided a deny or an ask. */
function decidingHook(record: GateDecisionRecord): { label: string; detail: string | null } | null {
  const kinds = record.decision === 'deny' ? ['no_verdict', 'deny_exit_2', 'deny'] : record.decision === 'ask' ? ['ask'] : [];
  for (const kind of kinds) {
    const row = record.hooks.find((h) => h.outcome === kind && (kind !== 'no_verdict' || h.strict));
    if (row) return { label: row.label, detail: row.detail };
  }
  return null;
}

/**
 * Turn a decision record into the gate a tool call obeys:
 * - a deny keeps the record's message (what the model is told) and names the hook;
 * - an ask keeps the asking hook's reason, so a prompt can say why;
 * - a rewrite (`updatedInput`) is checked again by `validate` — an input the tool would not
 *   accept denies the call, naming the issues; without `validate` it is taken as is;
 * - `additionalContext` is kept for `Hooks.decorate`.
 */
export async function gateOf(record: GateDecisionRecord, input: unknown, validate?: Validate | null): Promise<Omit<ToolGate, 'env' | 'aborted'>> {
  const decider = decidingHook(record);
  if (record.decision === 'deny') {
    return { decision: 'deny', reason: record.message, hook: decider?.label ?? null, input, rewritten: false, invalidRewrite: null, context: null, record };
  }
  let next = input;
  let rewritten = false;
  if (record.updatedInput) {
    if (validate) {
      const again = await validateInput(validate, record.updatedInput);
      if (!again.ok) {
        const reason = `a tool_call_before hook rewrote the input of '${record.tool}' into one the tool does not accept: ${again.issues}`;
        return { decision: 'deny', reason, hook: null, input: record.updatedInput, rewritten: false, invalidRewrite: again.issues, context: null, record };
      }
      next = again.value;
    } else {
      next = record.updatedInput;
    }
    rewritten = true;
  }
  return {
    decision: record.decision,
    reason: record.decision === 'ask' ? (decider?.detail ?? null) : null,
    hook: record.decision === 'ask' ? (decider?.label ?? null) : null,
    input: next,
    rewritten,
    invalidRewrite: null,
    context: record.additionalContext,
    record,
  };
}

/** A tool result with the hooks' `additionalContext` appended as `[hook context] …` (unchanged without one). */
export function appendHookContext(text: string, context: string | null | undefined): string {
  return context ? `${text}\n\n[hook context] ${context}` : text;
}

export { NO_ENV };
