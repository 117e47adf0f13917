// Promises of things that happen elsewhere in core (a run ends, a download settles), keyed by what
// they are about: a scheduled run waits on them instead of polling.

export class Waiters<T> {
  readonly #waiting = new Map<string, ((value: T) => void)[]>();

  /** The value now (from `current`), or the next one given for `key`. */
  wait(key: string, current: () => T | null): Promise<T> {
    const now = current();
    if (now !== null) return Promise.resolve(now);
    return new Promise((resolve) => this.#waiting.set(key, [...(this.#waiting.get(key) ?? []), resolve]));
  }

  resolve(key: string, value: T): void {
    const waiting = this.#waiting.get(key);
    if (!waiting) return;
    this.#waiting.delete(key);
    for (const resolve of waiting) resolve(value);
  }
}

export const runKey = (accountId: string, executionId: string): string => `${accountId}\u0000${executionId}`;
