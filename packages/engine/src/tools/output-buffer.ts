/**
 * Keeps the first `headBytes` and the last `tailBytes` of a stream, counting what it drops, so
 * a command that prints gigabytes costs a fixed amount of memory. The text is decoded at the
 * end on UTF-8 boundaries, with a marker where the middle was dropped.
 */
export class HeadTailBuffer {
  readonly #headMax: number;
  readonly #tailMax: number;
  readonly #head: Uint8Array[] = [];
  #headLen = 0;
  #tail: Uint8Array[] = [];
  #tailLen = 0;
  #dropped = 0;
  #droppedLines = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.#headMax = headBytes;
    this.#tailMax = tailBytes;
  }

  push(chunk: Uint8Array): void {
    let c = chunk;
    if (this.#headLen < this.#headMax) {
      const take = Math.min(this.#headMax - this.#headLen, c.length);
      this.#head.push(c.subarray(0, take));
      this.#headLen += take;
      c = c.subarray(take);
    }
    if (c.length === 0) return;
    this.#tail.push(c);
    this.#tailLen += c.length;
    while (this.#tailLen > this.#tailMax && this.#tail.length > 0) {
      const first = this.#tail[0]!;
      const excess = this.#tailLen - this.#tailMax;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailLen -= first.length;
        this.#dropped += first.length;
        this.#droppedLines += countNewlines(first);
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailLen -= excess;
        this.#dropped += excess;
        this.#droppedLines += countNewlines(first.subarray(0, excess));
      }
    }
  }

  get truncated(): boolean {
    return this.#dropped > 0;
  }

  get droppedBytes(): number {
    return this.#dropped;
  }

  /** Line breaks (`\n` bytes) in what was dropped: how many lines the output had beyond those kept. */
  get droppedLines(): number {
    return this.#droppedLines;
  }

  text(): string {
    const join = (parts: Uint8Array[], len: number): Uint8Array => {
      const out = new Uint8Array(len);
      let o = 0;
      for (const p of parts) {
        out.set(p, o);
        o += p.length;
      }
      return out;
    };
    const decoder = () => new TextDecoder('utf-8');
    if (this.#dropped === 0) return decoder().decode(join([...this.#head, ...this.#tail], this.#headLen + this.#tailLen));
    let head = join(this.#head, this.#headLen);
    let tail = join(this.#tail, this.#tailLen);
    // Cut the head back to a complete character, and start the tail at a lead byte.
    let end = head.length;
    for (let back = 1; back <= Math.min(4, head.length); back++) {
      const b = head[head.length - back]!;
      if ((b & 0xc0) === 0x80) continue;
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (need > back) end = head.length - back;
      break;
    }
    head = head.subarray(0, end);
    let start = 0;
    while (start < tail.length && start < 4 && (tail[start]! & 0xc0) === 0x80) start++;
    tail = tail.subarray(start);
    return `${decoder().decode(head)}\n[… ${this.#dropped} bytes of output omitted …]\n${decoder().decode(tail)}`;
  }
}

function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}
