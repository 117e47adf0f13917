import { HttpError } from './http-error.ts';

/**
 * A bound on uploads whose bodies are being read at once: each holds a temporary file and a
 * DuckDB read of it, so a flood of them would take the disk and memory every context shares.
 * The rest wait, unread, in arrival order; past `maxWaiting`, they are refused with a 429.
 */
export class UploadSlots {
  #free: number;
  #maxWaiting: number;
  #waiting: (() => void)[] = [];

  constructor(slots: number, maxWaiting: number) {
    this.#free = slots;
    this.#maxWaiting = maxWaiting;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else {
      if (this.#waiting.length >= this.#maxWaiting) {
        throw new HttpError(429, `${this.#waiting.length} uploads are already waiting; try again shortly`, {
          'retry-after': '5',
        });
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next(); // the slot passes straight to the next upload
      else this.#free++;
    }
  }
}
