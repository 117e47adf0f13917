import { tooManyWaiting } from '../http/http-error.ts';

/** What the bound reads of the executor: how many of an account's executions wait to start. */
export interface WaitingCount {
  waitingOf(accountId: number): number;
}

/**
 * A bound on the executions each context has waiting to start. Past it, a new execution is refused
 * with a 429 before anything is recorded: one context queueing without end would hold the
 * service's threads and memory long after its requests stopped, and push every other context's
 * executions back.
 */
export class WaitingBound {
  readonly #executor: WaitingCount;
  readonly #max: number;
  // executions let in and not yet handed to the executor (their record is being written)
  readonly #entering = new Map<number, number>();

  constructor(executor: WaitingCount, max: number) {
    this.#executor = executor;
    this.#max = max;
  }

  /** Runs `submit` (record the execution, hand it to the executor) if the account has room to wait. */
  async admit<T>(accountId: number, submit: () => Promise<T>): Promise<T> {
    const entering = this.#entering.get(accountId) ?? 0;
    const waiting = this.#executor.waitingOf(accountId) + entering;
    if (waiting >= this.#max) {
      throw tooManyWaiting(
        `${waiting} executions of this context are already waiting to start (at most ${this.#max}); try again when one has finished`,
      );
    }
    this.#entering.set(accountId, entering + 1);
    try {
      return await submit();
    } finally {
      const left = (this.#entering.get(accountId) ?? 1) - 1;
      if (left === 0) this.#entering.delete(accountId);
      else this.#entering.set(accountId, left);
    }
  }
}
