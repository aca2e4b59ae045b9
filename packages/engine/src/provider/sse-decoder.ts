/**
 * An incremental Server-Sent Events decoder (the WHATWG "event stream" interpretation),
 * independent of how the bytes were chunked on the wire.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field of this event, or `null` when it had none (the spec's "message"). */
  readonly event: string | null;
  /** Every `data:` line of the event, joined with `\n`. */
  readonly data: string;
  /** The last event id seen so far in the stream (ids persist across events, per the spec). */
  readonly id: string | null;
  /** A `retry:` value carried by this event, in milliseconds, when it had a valid one. */
  readonly retryMs: number | null;
}

/**
 * Feed it chunks (bytes or strings) with {@link SseDecoder.push}; it returns the events those
 * chunks completed. A chunk boundary may fall anywhere: inside a UTF-8 sequence, inside a
 * field name, or between the `\r` and `\n` of a CRLF. Lines end in CRLF, LF or CR; lines
 * starting with `:` are comments; a leading byte-order mark is dropped; a space after the
 * first `:` is removed. Unknown fields are ignored.
 *
 * Deviation from the spec, on purpose: {@link SseDecoder.end} dispatches a final event whose
 * blank line never came (many servers end with `data: [DONE]\n` only), instead of dropping it.
 */
export class SseDecoder {
  // ignoreBOM: the BOM is kept here and dropped once below, for bytes and strings alike (the
  // decoder's own stripping and ours would otherwise drop two from bytes that start with two).
  readonly #utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Text of the current, not yet terminated line. */
  #line = '';
  /** The previous chunk ended in `\r`: a `\n` starting the next one belongs to that line end. */
  #pendingCr = false;
  #sawFirstText = false;
  #event: string | null = null;
  #data: string[] = [];
  #hasData = false;
  #retryMs: number | null = null;
  #lastId: string | null = null;
  #ended = false;

  /** Decode one chunk; returns the events it completed, in order. */
  push(chunk: Uint8Array | string): SseEvent[] {
    if (this.#ended) throw new Error('SseDecoder: push() after end()');
    const text = typeof chunk === 'string' ? this.#flushBytes() + chunk : this.#utf8.decode(chunk, { stream: true });
    return this.#consume(text);
  }

  /** The input is over: flush an incomplete UTF-8 sequence (as U+FFFD) and a final unterminated event. */
  end(): SseEvent[] {
    if (this.#ended) return [];
    const out = this.#consume(this.#flushBytes());
    this.#ended = true;
    if (this.#line !== '') {
      this.#processLine(this.#line, out);
      this.#line = '';
    }
    this.#dispatch(out);
    return out;
  }

  #flushBytes(): string {
    return this.#utf8.decode();
  }

  #consume(input: string): SseEvent[] {
    const out: SseEvent[] = [];
    let text = input;
    if (text === '') return out;
    if (!this.#sawFirstText) {
      this.#sawFirstText = true;
      // One leading BOM is not part of the stream, whether it came as bytes or as a string.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.#pendingCr) {
      this.#pendingCr = false;
      if (text.charCodeAt(0) === 0x0a) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      const line = this.#line + text.slice(start, i);
      this.#line = '';
      this.#processLine(line, out);
      if (c === 0x0d) {
        if (i + 1 === text.length) this.#pendingCr = true;
        else if (text.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
    }
    if (start < text.length) this.#line += text.slice(start);
    return out;
  }

  #processLine(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.#dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // `:` comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        this.#hasData = true;
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.#lastId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.#retryMs = Number(value);
        break;
      default:
        break;
    }
  }

  #dispatch(out: SseEvent[]): void {
    if (this.#hasData) {
      out.push({
        event: this.#event === '' ? null : this.#event,
        data: this.#data.join('\n'),
        id: this.#lastId,
        retryMs: this.#retryMs,
      });
    }
    this.#event = null;
    this.#data = [];
    this.#hasData = false;
    this.#retryMs = null;
  }
}

/** Decode a whole stream at once (tests, recorded fixtures). */
export function decodeSse(input: Uint8Array | string): SseEvent[] {
  const decoder = new SseDecoder();
  return [...decoder.push(input), ...decoder.end()];
}
