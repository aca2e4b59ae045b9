/**
 * Parsed Chat Completions stream chunks → normalised {@link ModelStreamEvent}s.
 */
import { ToolCallAssembler } from './tool-call-assembler.js';
import type { ModelStreamEvent, ModelUsage } from './types.js';
import { parseUsage } from './usage.js';

/** The reasons a `finish` event can carry. */
export type FinishReason = Extract<ModelStreamEvent, { type: 'finish' }>['reason'];

/**
 * Map a wire `finish_reason`. `tool_calls` and the legacy `function_call` → `tool_calls`;
 * `stop` with tool calls present → `tool_calls` (some servers, e.g. Ollama, say `stop`);
 * `stop`, `length`, `content_filter` as themselves; anything else → `other`.
 */
export function mapFinishReason(raw: string, hasToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'stop':
    case 'eos':
    case 'end_turn':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

/**
 * Feed it each parsed chunk with {@link ChatChunkReader.accept}; it returns the events to
 * stream now: `reasoning` (`delta.reasoning_content`, or `delta.reasoning`), `text`
 * (`delta.content`), and the complete `tool_call`s as soon as `finish_reason` arrives.
 * {@link ChatChunkReader.complete} returns what is left: tool calls not yet emitted, at most one
 * `usage` (the last one any chunk carried) and the one `finish`. Only choice 0 is read.
 */
export class ChatChunkReader {
  readonly #calls = new ToolCallAssembler();
  #rawFinish: string | null = null;
  #callsEmitted = false;
  #callCount = 0;
  #usage: ModelUsage | null = null;

  /** A `finish_reason` has arrived. */
  get sawFinishReason(): boolean {
    return this.#rawFinish !== null;
  }

  /** The last usage seen, if any. */
  get usage(): ModelUsage | null {
    return this.#usage;
  }

  /** Events for one parsed chunk. Shapes it does not know are ignored. */
  accept(chunk: unknown): ModelStreamEvent[] {
    const out: ModelStreamEvent[] = [];
    if (chunk === null || typeof chunk !== 'object') return out;
    const c = chunk as Record<string, unknown>;
    const choices = Array.isArray(c['choices']) ? (c['choices'] as unknown[]) : [];
    const choice = choices.find((ch) => isRecord(ch) && (ch['index'] === undefined || ch['index'] === 0)) ?? choices[0];
    if (isRecord(choice)) {
      const delta = isRecord(choice['delta']) ? choice['delta'] : isRecord(choice['message']) ? choice['message'] : {};
      const reasoning = delta['reasoning_content'] ?? delta['reasoning'];
      if (typeof reasoning === 'string' && reasoning !== '') out.push({ type: 'reasoning', delta: reasoning });
      const content = delta['content'];
      if (typeof content === 'string' && content !== '') out.push({ type: 'text', delta: content });
      if (!this.#callsEmitted) this.#calls.pushAll(delta['tool_calls']);
      const finish = choice['finish_reason'];
      if (typeof finish === 'string' && finish !== '' && this.#rawFinish === null) {
        this.#rawFinish = finish;
        out.push(...this.#emitCalls());
      }
    }
    // Some servers repeat (cumulative) usage on every chunk: keep the last, emit it once.
    if (isRecord(c['usage'])) this.#usage = parseUsage(c['usage']);
    return out;
  }

  /** The stream is over (it said `[DONE]`, or ended after a `finish_reason`): the closing events. */
  complete(): ModelStreamEvent[] {
    const out = this.#emitCalls();
    if (this.#usage !== null) out.push({ type: 'usage', usage: this.#usage });
    const reason = this.#rawFinish === null ? (this.#callCount > 0 ? 'tool_calls' : 'stop') : mapFinishReason(this.#rawFinish, this.#callCount > 0);
    out.push({ type: 'finish', reason });
    return out;
  }

  #emitCalls(): ModelStreamEvent[] {
    if (this.#callsEmitted) return [];
    this.#callsEmitted = true;
    const calls = this.#calls.finish();
    this.#callCount = calls.length;
    return calls.map((call) => ({ type: 'tool_call', call }));
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
