/**
 * A provider that plays a replay script: offline, deterministic model turns for demos and
 * for testing hooks against realistic tool calls without a network or a key.
 */
import { readRegularFile } from '@codewhale/hooks-supervisor';
import { abortableSleep } from './abortable-sleep.js';
import { type ReplayTurn, parseReplayScript } from './replay-script.js';
import { type ModelProvider, type ModelRequest, type ModelStreamEvent, type ModelUsage, ProviderError } from './types.js';
import { codePointCount, estimateTokens, parseUsage } from './usage.js';

/** The largest replay script {@link ReplayProvider.fromFile} reads. */
export const REPLAY_SCRIPT_MAX_BYTES = 64 * 1024 * 1024;

/** Options of {@link ReplayProvider}. */
export interface ReplayProviderOptions {
  /** Provider identity. Default `replay`. */
  readonly id?: string;
  /** Model id reported. Default `replay`. */
  readonly model?: string;
  /** Where the script came from, named in messages. Default `(inline)`. */
  readonly source?: string;
  /** Pause between streamed events (demos). Default 0: no timers at all. */
  readonly chunkDelayMs?: number;
}

/**
 * Plays one script turn per {@link ReplayProvider.stream} call, in order. Each turn streams:
 * its reasoning, then its text (each split into at most 4 deltas at fixed code-point
 * boundaries), its tool calls (ids `call_<turn>_<i>`, both 1-based, when the script gave none),
 * one usage (the script's counts; a missing input/output count is estimated at ≈ 4 characters
 * per token of the request and of the turn), then `finish`. A turn with `error` streams its
 * text and reasoning and then throws that {@link ProviderError}. When the script is used up,
 * `stream()` throws a non-retryable `invalid_input` error saying so.
 *
 * Every request is kept in {@link ReplayProvider.requests}, so tests can check what the model
 * was sent.
 */
export class ReplayProvider implements ModelProvider {
  readonly id: string;
  readonly model: string;
  /** The script's source, for messages. */
  readonly source: string;
  /** Every request received, in order (including the one that found the script used up). */
  readonly requests: ModelRequest[] = [];
  readonly #turns: readonly ReplayTurn[];
  readonly #chunkDelayMs: number;
  #next = 0;

  constructor(turns: readonly ReplayTurn[], options: ReplayProviderOptions = {}) {
    this.#turns = turns;
    this.id = options.id ?? 'replay';
    this.model = options.model ?? 'replay';
    this.source = options.source ?? '(inline)';
    this.#chunkDelayMs = options.chunkDelayMs ?? 0;
  }

  /**
   * Read and parse a script file; throws `ReplayScriptError` (with line numbers) when it is
   * invalid, and an `Error` naming the file when it is missing, not a regular file (a FIFO, a
   * directory, a device: refused without blocking) or over 64 MiB.
   */
  static async fromFile(path: string, options: Omit<ReplayProviderOptions, 'source'> = {}): Promise<ReplayProvider> {
    const read = readRegularFile(path, REPLAY_SCRIPT_MAX_BYTES);
    if (!read.ok) throw new Error(read.message);
    const text = new TextDecoder().decode(read.bytes);
    return new ReplayProvider(parseReplayScript(text, path), { ...options, source: path });
  }

  /** Parse script text; throws `ReplayScriptError` when it is invalid. */
  static fromText(text: string, options: ReplayProviderOptions = {}): ReplayProvider {
    const source = options.source ?? '(inline)';
    return new ReplayProvider(parseReplayScript(text, source), { ...options, source });
  }

  /** Number of turns in the script. */
  get turnCount(): number {
    return this.#turns.length;
  }

  /** Turns played so far (failed ones included). */
  get turnsPlayed(): number {
    return this.#next;
  }

  /** Turns not played yet. */
  get remaining(): number {
    return this.#turns.length - this.#next;
  }

  stream(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): AsyncIterable<ModelStreamEvent> {
    return this.#play(request, options.signal);
  }

  async *#play(request: ModelRequest, signal: AbortSignal | undefined): AsyncGenerator<ModelStreamEvent> {
    this.requests.push(request);
    if (signal?.aborted) throw this.#cancelled(signal.reason);
    const turn = this.#turns[this.#next];
    if (turn === undefined) {
      const n = this.#turns.length;
      throw new ProviderError(`replay script ${this.source} has no more model turns: it had ${n} turn${n === 1 ? '' : 's'}, and the session asked for turn ${n + 1}`, {
        category: 'invalid_input',
        retryable: false,
      });
    }
    const turnNumber = ++this.#next;
    if (turn.delayMs > 0) await this.#wait(turn.delayMs, signal);

    const events: ModelStreamEvent[] = [
      ...chunkText(turn.reasoning).map((delta): ModelStreamEvent => ({ type: 'reasoning', delta })),
      ...chunkText(turn.text).map((delta): ModelStreamEvent => ({ type: 'text', delta })),
    ];
    if (turn.error === null) {
      const calls = turn.toolCalls.map((c, i) => ({ id: c.id ?? `call_${turnNumber}_${i + 1}`, name: c.name, arguments: c.arguments }));
      for (const call of calls) events.push({ type: 'tool_call', call });
      events.push({ type: 'usage', usage: replayUsage(turn, request) });
      events.push({ type: 'finish', reason: turn.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop') });
    }
    for (const event of events) {
      if (this.#chunkDelayMs > 0) await this.#wait(this.#chunkDelayMs, signal);
      if (signal?.aborted) throw this.#cancelled(signal.reason);
      yield event;
    }
    if (turn.error !== null) {
      throw new ProviderError(turn.error.message, {
        category: turn.error.category,
        retryable: turn.error.retryable,
        status: turn.error.status,
        retryAfterSecs: turn.error.retryAfterSecs,
      });
    }
  }

  async #wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await abortableSleep(ms, signal);
    } catch (error) {
      throw this.#cancelled(error);
    }
  }

  #cancelled(cause: unknown): ProviderError {
    return new ProviderError(`${this.id}: the model request was cancelled`, { category: 'cancelled', retryable: false, cause });
  }
}

/**
 * Split `text` into at most 4 deltas of near-equal code-point length (1 delta up to 16 code
 * points, one more per 16, at most 4). Deterministic; the empty string gives no deltas.
 */
export function chunkText(text: string): string[] {
  if (text === '') return [];
  const points = Array.from(text);
  const parts = Math.min(4, Math.max(1, Math.ceil(points.length / 16)));
  const size = Math.ceil(points.length / parts);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** The turn's usage: the script's counts, with missing input/output counts estimated. */
function replayUsage(turn: ReplayTurn, request: ModelRequest): ModelUsage {
  const given = turn.usage ?? {};
  const parsed = parseUsage(given);
  const has = (...keys: string[]): boolean => keys.some((k) => typeof given[k] === 'number');
  const reasoningTokens = parsed.reasoningTokens ?? (turn.reasoning !== '' ? estimateTokens(turn.reasoning) : null);
  const outputTokens = has('completion_tokens', 'output_tokens') ? parsed.outputTokens : estimateTokens(turn.reasoning + turn.text + turn.toolCalls.map((c) => c.name + c.arguments).join(''));
  return {
    ...parsed,
    inputTokens: has('prompt_tokens', 'input_tokens') ? parsed.inputTokens : requestTokens(request),
    outputTokens,
    reasoningTokens: reasoningTokens !== null && reasoningTokens <= outputTokens ? reasoningTokens : null,
  };
}

/**
 * The estimated input tokens of a request: the code points of every message's text and of the
 * tool list, ÷ 4, rounded up. A session sends its whole history on every request, so each
 * message's count (and the tool list's) is computed once and kept with the object; a request
 * then costs only its new messages. The counts add up exactly as the concatenated text's would:
 * a surrogate pair split across two parts is counted once.
 */
function requestTokens(request: ModelRequest): number {
  let total = 0;
  let prevLast = 0;
  const add = (span: Span): void => {
    if (span.n === 0) return;
    total += span.n;
    if (isHigh(prevLast) && isLow(span.first)) total--;
    prevLast = span.last;
  };
  for (const m of request.messages) add(messageSpan(m));
  if (request.tools.length > 0) add(toolsSpan(request.tools));
  return Math.ceil(total / 4);
}

interface Span {
  /** Code points. */
  readonly n: number;
  /** The first and last UTF-16 code units (0 when empty). */
  readonly first: number;
  readonly last: number;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
const spanOf = (text: string): Span => ({ n: codePointCount(text), first: text.length > 0 ? text.charCodeAt(0) : 0, last: text.length > 0 ? text.charCodeAt(text.length - 1) : 0 });

const MESSAGE_SPANS = new WeakMap<object, Span>();
function messageSpan(m: ModelRequest['messages'][number]): Span {
  let span = MESSAGE_SPANS.get(m);
  if (!span) {
    let text: string;
    if (m.role === 'assistant') {
      text = (m.content ?? '') + (m.reasoningContent ?? '');
      for (const c of m.toolCalls ?? []) text += c.name + c.arguments;
    } else {
      text = m.content;
    }
    span = spanOf(text);
    MESSAGE_SPANS.set(m, span);
  }
  return span;
}

const TOOL_SPANS = new WeakMap<object, Span>();
function toolsSpan(tools: ModelRequest['tools']): Span {
  let span = TOOL_SPANS.get(tools);
  if (!span) {
    span = spanOf(JSON.stringify(tools));
    TOOL_SPANS.set(tools, span);
  }
  return span;
}
