import { doubled } from '../../common/backoff.ts';
import type { PollBounds } from '../../contract/index.ts';
import { LOCAL_ACCOUNT_ID } from '../accounts/registry.ts';
import { ACCOUNT_POLL_RATE, type PollRate } from './poll-budget.ts';

// How often the runs of an account are polled. A run is polled fast while young (most end in
// seconds) and slower as it ages; the first poll after a second, as Dune's SDKs poll. The polls
// of an account share its rate (poll-budget.ts), except the Local account's: its embedded service,
// as the hosts start it, has no rate limit, so its runs are polled from a quarter second.

export const DEFAULT_POLL_BOUNDS: PollBounds = { minMs: 1000, maxMs: 3000 };

const LOCAL_MIN_POLL_MS = 250;

export interface PollPace {
  /** The wait before a run's next poll, from the run's age and the failed polls in a row. */
  delay(elapsedMs: number, failures: number): number;
  /** The rate all polls of the account share; null when its service has no rate limit. */
  rate: PollRate | null;
}

/** A tenth of the run's age, within the bounds; doubled per failed poll in a row, up to 30 s (or the upper bound, if longer). */
export function pollDelayWithin(bounds: PollBounds, elapsedMs: number, failures: number): number {
  const base = Math.min(bounds.maxMs, Math.max(bounds.minMs, elapsedMs / 10));
  return doubled(base, failures, Math.max(30_000, bounds.maxMs));
}

/** How the account's runs are polled, within the settings' bounds. */
export function paceOf(accountId: string, bounds: PollBounds): PollPace {
  if (accountId === LOCAL_ACCOUNT_ID) {
    const local = { minMs: LOCAL_MIN_POLL_MS, maxMs: bounds.maxMs };
    return { delay: (elapsedMs, failures) => pollDelayWithin(local, elapsedMs, failures), rate: null };
  }
  return { delay: (elapsedMs, failures) => pollDelayWithin(bounds, elapsedMs, failures), rate: ACCOUNT_POLL_RATE };
}
