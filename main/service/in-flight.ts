/**
 * Work under way, by key: a caller asking for the same work while it runs is given its answer (or
 * its error) rather than running it again. Nothing is kept once the work ends.
 */
export class InFlight<V> {
  readonly #running = new Map<string, Promise<V>>();

  run(key: string, work: () => Promise<V>): Promise<V> {
    const running = this.#running.get(key);
    if (running) return running;
    const started = work().finally(() => {
      if (this.#running.get(key) === started) this.#running.delete(key);
    });
    this.#running.set(key, started);
    return started;
  }
}
