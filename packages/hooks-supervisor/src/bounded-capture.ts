/**
 * Captures at most `maxBytes` of a stream and drains (discards) the rest, so a hook that
 * writes 1 GiB costs `maxBytes` of memory. The text is decoded once at the end, cut on a
 * UTF-8 character boundary: a character split by the cap is dropped whole, never turned into
 * a replacement character; invalid bytes inside the capture decode to U+FFFD.
 */
export class BoundedCapture {
  readonly #maxBytes: number;
  readonly #chunks: Uint8Array[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Add a chunk; bytes past the cap are counted and discarded. */
  push(chunk: Uint8Array): void {
    const room = this.#maxBytes - this.#bytes;
    if (room <= 0) {
      this.#dropped += chunk.length;
      return;
    }
    if (chunk.length <= room) {
      this.#chunks.push(chunk);
      this.#bytes += chunk.length;
    } else {
      this.#chunks.push(chunk.subarray(0, room));
      this.#bytes += room;
      this.#dropped += chunk.length - room;
    }
  }

  /** Bytes seen past the cap. */
  get droppedBytes(): number {
    return this.#dropped;
  }

  get truncated(): boolean {
    return this.#dropped > 0;
  }

  /** The captured text. */
  text(): string {
    const all = new Uint8Array(this.#bytes);
    let offset = 0;
    for (const c of this.#chunks) {
      all.set(c, offset);
      offset += c.length;
    }
    const end = this.truncated ? completeSequenceEnd(all) : all.length;
    return new TextDecoder('utf-8').decode(all.subarray(0, end));
  }
}

/** Length of `bytes` without a trailing incomplete UTF-8 sequence. */
export function completeSequenceEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  // Look back at most 3 bytes for the lead byte of the last sequence.
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
