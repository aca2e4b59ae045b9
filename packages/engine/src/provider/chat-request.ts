/**
 * {@link ModelRequest} → the JSON body of a streaming Chat Completions request.
 */
import type { ChatMessage, ModelRequest, ModelToolSpec } from './types.js';

/** Options of {@link buildChatRequestBody}. */
export interface ChatRequestBodyOptions {
  /**
   * DeepSeek thinking mode: send `reasoning_content` on assistant messages, and on every one
   * that carries tool calls even when none was recorded (as `""`), or the API answers 400.
   * Off: `reasoning_content` is never sent (other servers reject or misread it).
   */
  readonly replayReasoning: boolean;
  /** `max_tokens` (most servers) or `max_completion_tokens` (OpenAI's reasoning models). */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Extra top-level fields merged into the body last (e.g. `{"thinking": {...}}`). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/** What the placeholder `reasoning_content` of a replayed tool-call message is. */
export const REASONING_PLACEHOLDER = '';

/**
 * The request body: `model`, `messages`, `stream: true`,
 * `stream_options: {include_usage: true}`, `tools` (omitted when empty), `temperature` and
 * the max-tokens field when set, then `extraBody`.
 */
export function buildChatRequestBody(request: ModelRequest, options: ChatRequestBodyOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages.map((m) => toWireMessage(m, options.replayReasoning)),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) body['tools'] = wireTools(request.tools);
  if (request.temperature !== undefined) body['temperature'] = request.temperature;
  if (request.maxTokens !== undefined) body[options.maxTokensField] = request.maxTokens;
  if (options.extraBody) Object.assign(body, options.extraBody);
  return body;
}

/** One message in the wire shape. */
export function toWireMessage(message: ChatMessage, replayReasoning: boolean): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      const out: Record<string, unknown> = { role: 'assistant', content: message.content ?? (calls.length > 0 ? null : '') };
      if (calls.length > 0) {
        out['tool_calls'] = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      }
      if (replayReasoning) {
        const reasoning = message.reasoningContent ?? null;
        if (reasoning !== null && reasoning !== '') out['reasoning_content'] = reasoning;
        else if (calls.length > 0) out['reasoning_content'] = REASONING_PLACEHOLDER;
      }
      return out;
    }
  }
}

const WIRE_TOOLS = new WeakMap<readonly ModelToolSpec[], readonly Record<string, unknown>[]>();

/**
 * The wire form of a tool list, built once per list: a session offers the same (frozen) array on
 * every request, so the conversion is not repeated per model request.
 */
export function wireTools(tools: readonly ModelToolSpec[]): readonly Record<string, unknown>[] {
  let wire = WIRE_TOOLS.get(tools);
  if (!wire) {
    wire = Object.freeze(tools.map(toWireTool));
    WIRE_TOOLS.set(tools, wire);
  }
  return wire;
}

function toWireTool(tool: ModelToolSpec): Record<string, unknown> {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}
