import { open } from 'node:fs/promises';
import { BoundedCache } from '../bounded-cache.ts';

// Each new buffer of several megabytes is memory outside V8's heap that V8 still counts: it starts
// a full garbage collection every few of them. Reading a large result's JSON text into new
// buffers cost several such collections, a good share of the read's CPU (bench/RESULTS.md): the
// text's memory is used again instead.

// A buffer is made a little larger than asked, so that the next block's text, of about the same
// size, fits in it; and it is not used for text of less than half its size.
const SLACK = 1 / 8;
const ROUNDING = 64 * 1024;

/**
 * Memory given back (text dropped, no page of it being sent) and taken again for new text, up to
 * a number of bytes kept unused. Only what was taken from here is kept when given back.
 */
export class SpareMemory {
  readonly #maxBytes: number;
  readonly #taken = new WeakSet<ArrayBuffer>();
  /** The memory kept, oldest given back first out. */
  readonly #spare: BoundedCache<ArrayBuffer, ArrayBuffer>;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#spare = new BoundedCache({ size: maxBytes, sizeOf: (memory) => memory.byteLength });
  }

  /** The bytes kept unused. */
  get bytes(): number {
    return this.#spare.size;
  }

  /** Lets go of the memory kept. */
  clear(): void {
    this.#spare.clear();
  }

  /** A buffer of `size` bytes, in spare memory that fits it when there is some, else in new memory. */
  take(size: number): Buffer {
    let best: ArrayBuffer | null = null;
    for (const [memory] of this.#spare.entries()) {
      if (memory.byteLength < size || memory.byteLength > 2 * size) continue;
      if (!best || memory.byteLength < best.byteLength) best = memory;
    }
    if (best) {
      this.#spare.delete(best);
      return Buffer.from(best, 0, size);
    }
    const made = Buffer.allocUnsafeSlow(Math.ceil((size * (1 + SLACK)) / ROUNDING) * ROUNDING);
    this.#taken.add(made.buffer as ArrayBuffer);
    return made.subarray(0, size);
  }

  /** Gives back the memory of a buffer from `take` that nothing reads any more; the oldest spare goes past the limit. */
  give(buffer: Buffer): void {
    const memory = buffer.buffer as ArrayBuffer;
    if (!this.#taken.has(memory) || this.#spare.has(memory) || memory.byteLength > this.#maxBytes) return;
    this.#spare.set(memory, memory);
  }
}

/** A file's bytes `start` to `end` (to its end when not given), read into a buffer from `allocate`. */
export async function readBytes(path: string, allocate: (size: number) => Buffer, start = 0, end?: number): Promise<Buffer> {
  const file = await open(path);
  try {
    const to = end ?? (await file.stat()).size;
    const bytes = allocate(to - start);
    for (let done = 0; done < bytes.length;) {
      const { bytesRead } = await file.read(bytes, done, bytes.length - done, start + done);
      if (bytesRead === 0) throw new Error(`${path} ended after ${start + done} of ${to} bytes`);
      done += bytesRead;
    }
    return bytes;
  } finally {
    await file.close();
  }
}
