// The status polls of one account share one rate, however many of its runs are watched: status is
// one of Dune's read endpoints, and its Free plan allows 40 reads a minute in all (notes §10), so
// polls must leave room for the results and lists the person reads meanwhile. A burst lets a young
// run be polled at its own pace (every second at first, as the SDKs do), so a quick run ends
// promptly; past it, the account's polls are spaced to the rate. A GCRA: `#due` is when the next
// poll would be due if the polls so far had come exactly at the rate.

export interface PollRate {
  /** Polls a minute of the account, all its runs together, once the burst is spent. */
  perMinute: number;
  /** Polls that may come at the runs' own pace before the rate holds them. */
  burst: number;
}

/** 15 a minute beyond a burst of 10: a single run's first minute takes about 24 of the Free plan's 40 reads. */
export const ACCOUNT_POLL_RATE: PollRate = { perMinute: 15, burst: 10 };

export class PollBudget {
  readonly #intervalMs: number;
  readonly #toleranceMs: number;
  #due = Number.NEGATIVE_INFINITY;

  constructor(rate: PollRate) {
    this.#intervalMs = 60_000 / rate.perMinute;
    this.#toleranceMs = (rate.burst - 1) * this.#intervalMs;
  }

  /** The earliest time, from `wantedAt` on, a poll may be sent; it is counted as sent then. */
  reserve(wantedAt: number): number {
    const at = Math.max(wantedAt, this.#due - this.#toleranceMs);
    this.#due = Math.max(this.#due, at) + this.#intervalMs;
    return at;
  }
}
