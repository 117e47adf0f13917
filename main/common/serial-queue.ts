// Work that must not overlap (the one shared DuckDB connection, the appends to one file, the
// changes to one table) runs one call at a time, in the order it was asked for. A failure belongs
// to its own caller: the calls queued after it still run.

export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` once every earlier call has settled, and answers what `work` answers. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => work());
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Settles (never rejects) once every call asked for so far has settled. */
  settled(): Promise<unknown> {
    return this.#tail;
  }
}

/** One SerialQueue per key, kept only while it has work: calls with different keys do not wait for each other. */
export class KeyedSerialQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.#tails.get(key) ?? Promise.resolve()).then(() => work());
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
