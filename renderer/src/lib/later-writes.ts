/**
 * Writes to main that wait for a burst of changes to pause (typing, dragging, picking), held in
 * one place per window: when the window closes or its host stops, every write still waiting is
 * sent at once, so a change made just before is on disk all the same.
 */
export class LaterWrites {
  readonly #waiting = new Map<string, { timer: ReturnType<typeof setTimeout>; write: () => void }>();

  /** Runs `write` once `delayMs` pass without another write scheduled under `key`, which it replaces. */
  schedule(key: string, delayMs: number, write: () => void): void {
    this.cancel(key);
    const timer = setTimeout(() => this.#run(key), delayMs);
    this.#waiting.set(key, { timer, write });
  }

  /** Drops the write waiting under `key`: what it would have written is no longer wanted. */
  cancel(key: string): void {
    const waiting = this.#waiting.get(key);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.#waiting.delete(key);
  }

  /** Runs every waiting write now, in the order they were scheduled. */
  flush(): void {
    for (const key of [...this.#waiting.keys()]) this.#run(key);
  }

  #run(key: string): void {
    const waiting = this.#waiting.get(key)!;
    clearTimeout(waiting.timer);
    this.#waiting.delete(key);
    waiting.write();
  }
}
