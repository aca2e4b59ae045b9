import * as z from 'zod';
import { ToolError, type ToolDefinition } from './tool.js';

const todoSchema = z
  .object({
    todos: z.array(z.object({ content: z.string().min(1), status: z.enum(['pending', 'in_progress', 'completed']) }).strict()).max(100),
  })
  .strict();

/** The `todo_write` tool's input: the whole list, each item with its status. */
export interface TodoWriteInput {
  todos: { content: string; status: 'pending' | 'in_progress' | 'completed' }[];
}

export const todoWriteTool: ToolDefinition<TodoWriteInput> = {
  name: 'todo_write',
  kind: 'meta',
  description: 'Replace the session todo list (a full replacement, not a patch).',
  schema: todoSchema,
  async execute(input, ctx) {
    ctx.services.setTodos(input.todos);
    const done = input.todos.filter((t) => t.status === 'completed').length;
    return { content: `todo list updated: ${input.todos.length} item(s), ${done} completed`, success: true };
  },
};

const questionSchema = z
  .object({
    id: z.string().min(1),
    header: z.string().min(1).max(40),
    question: z.string().min(1),
    options: z
      .array(z.object({ label: z.string().min(1), description: z.string().optional() }).strict())
      .min(2)
      .max(4),
    allow_free_text: z.boolean().optional(),
    multi_select: z.boolean().optional(),
  })
  .strict();

const askSchema = z.object({ questions: z.array(questionSchema).min(1).max(3) }).strict();

/** The `request_user_input` tool's input: one to three questions, each with two to four options. */
export interface RequestUserInputInput {
  questions: {
    id: string;
    header: string;
    question: string;
    options: { label: string; description?: string | undefined }[];
    allow_free_text?: boolean | undefined;
    multi_select?: boolean | undefined;
  }[];
}

export const requestUserInputTool: ToolDefinition<RequestUserInputInput> = {
  name: 'request_user_input',
  kind: 'interactive',
  description: 'Ask the user 1–3 multiple-choice questions and wait for the answers. Use only when you cannot proceed without a decision.',
  schema: askSchema,
  async execute(input, ctx) {
    const answer = await ctx.services.askUser({
      id: ctx.callId,
      questions: input.questions.map((q) => ({
        id: q.id,
        header: q.header,
        question: q.question,
        options: q.options,
        allowFreeText: q.allow_free_text ?? false,
        multiSelect: q.multi_select ?? false,
      })),
    });
    if (ctx.signal.aborted) throw new ToolError('cancelled', 'the question was cancelled');
    if (answer === null) {
      return { content: 'The user is not available to answer questions in this session; decide autonomously and state your assumptions.', success: true };
    }
    return { content: JSON.stringify({ answers: answer }), success: true };
  },
};

const agentSchema = z
  .object({
    prompt: z.string().min(1).describe('The complete task for the sub-agent; it sees nothing else'),
    name: z.string().max(64).optional().describe('A short label for the sub-agent'),
  })
  .strict();

const DONE_OPEN = '<codewhale:subagent.done>';
const DONE_CLOSE = '</codewhale:subagent.done>';
const DONE_MARKER = /\n?<codewhale:subagent\.done>[^\n]*?<\/codewhale:subagent\.done>/g;

/**
 * The `agent` tool's result as a person reads it: the sub-agent's answer without the completion
 * marker that tells the model which agent finished and how. Pure.
 */
export function withoutSubagentMarker(content: string): string {
  return content.includes(DONE_OPEN) ? content.replace(DONE_MARKER, '') : content;
}
/** The `agent` tool's input: the sub-agent's whole task, and an optional label. */
export interface AgentInput {
  prompt: string;
  name?: string | undefined;
}

export const agentTool: ToolDefinition<AgentInput> = {
  name: 'agent',
  kind: 'agent',
  description: 'Start a sub-agent with its own conversation for a self-contained task and wait for its final answer.',
  schema: agentSchema,
  async execute(input, ctx) {
    const done = await ctx.services.runSubagent({ prompt: input.prompt, ...(input.name ? { name: input.name } : {}) }, ctx.signal);
    return {
      content: `${done.result}\n${DONE_OPEN}${JSON.stringify({ agent_id: done.agentId, status: done.status })}${DONE_CLOSE}`,
      success: done.status === 'completed',
    };
  },
};
