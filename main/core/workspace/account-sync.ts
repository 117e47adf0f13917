import { doubled, jittered, type Jitter } from '../../common/backoff.ts';
import type { SyncState } from '../../contract/index.ts';
import { failureText } from '../words.ts';

/** What one attempt to reach the service found. */
export type Reach = { status: 'online' } | { status: 'offline' | 'key_refused'; reason: string };

export interface SyncOptions {
  accountId: string;
  /** One refresh against the service: the list, the tables, the edits waiting to be sent. */
  attempt: () => Promise<Reach>;
  onChange: (state: SyncState) => void;
  now?: () => Date;
  /** In [0, 1), for the jitter of the retry delay. */
  random?: () => number;
}

const FIRST_RETRY_MS = 2_000;
const LAST_RETRY_MS = 60_000;
const WITHIN_A_FIFTH: Jitter = { from: 0.8, spread: 0.4 };

/** 2 s, 4 s, 8 s ... up to a minute, each within ±20 % so many windows don't retry in step. */
export function retryDelay(failures: number, random: () => number): number {
  return jittered(doubled(FIRST_RETRY_MS, failures - 1, LAST_RETRY_MS), WITHIN_A_FIFTH, random);
}

/**
 * Whether an account's service answers, as main last saw it, and the retries while it does not:
 * automatic with backoff when offline, none when the key was refused (a new key is needed), at once
 * when asked (Try again, or the OS says the network is back).
 */
export class AccountSync {
  readonly #options: SyncOptions;
  readonly #now: () => Date;
  readonly #random: () => number;
  #state: SyncState;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<SyncState> | null = null;
  #disposed = false;

  constructor(options: SyncOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? Math.random;
    this.#state = {
      accountId: options.accountId,
      status: 'checking',
      lastSyncedAt: null,
      offlineSince: null,
      reason: null,
      nextRetryAt: null,
    };
  }

  get state(): SyncState {
    return this.#state;
  }

  /** Tries now (joining an attempt under way); answers the state after it. */
  refresh(): Promise<SyncState> {
    if (this.#running) return this.#running;
    clearTimeout(this.#timer);
    this.#set({ ...this.#state, status: 'checking', nextRetryAt: null });
    this.#running = this.#options
      .attempt()
      .catch((error: unknown): Reach => ({ status: 'offline', reason: failureText(error) }))
      .then((reach) => {
        this.#running = null;
        this.#settle(reach);
        return this.#state;
      });
    return this.#running;
  }

  /** The OS says the network is back: an offline account is tried at once. */
  networkBack(): void {
    if (this.#state.status === 'offline') void this.refresh();
  }

  /**
   * What an attempt of any call to the service found (a download's page, a call made for the
   * user), as it happens: a failure makes an account that answered offline at once, retried as
   * after a failed refresh; an answer to an account offline is checked with a refresh at once, which
   * sends what waited and tells who waits for the service (see Workspaces). While a refresh is
   * under way its own outcome decides; failures while offline keep the retries' pace.
   */
  observe(reach: Reach): void {
    if (this.#disposed || this.#running !== null) return;
    const status = this.#state.status;
    if (reach.status === 'online') {
      if (status === 'offline' || status === 'key_refused') void this.refresh();
      return;
    }
    if (reach.status !== status) this.#settle(reach);
  }

  /** What a refresh found. */
  #settle(reach: Reach): void {
    if (this.#disposed) return;
    clearTimeout(this.#timer);
    const at = this.#now().toISOString();
    if (reach.status === 'online') {
      this.#failures = 0;
      this.#set({ ...this.#state, status: 'online', lastSyncedAt: at, offlineSince: null, reason: null, nextRetryAt: null });
      return;
    }
    if (reach.status === 'key_refused') {
      this.#set({ ...this.#state, status: 'key_refused', reason: reach.reason, offlineSince: null, nextRetryAt: null });
      return;
    }
    this.#failures += 1;
    const delay = retryDelay(this.#failures, this.#random);
    // Kept through the attempts in between (their `checking` keeps it too): since the first failure.
    const offlineSince = this.#state.offlineSince ?? at;
    this.#set({
      ...this.#state,
      status: 'offline',
      reason: reach.reason,
      offlineSince,
      nextRetryAt: new Date(this.#now().getTime() + delay).toISOString(),
    });
    this.#timer = setTimeout(() => void this.refresh(), delay);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }

  #set(state: SyncState): void {
    const changed = JSON.stringify(state) !== JSON.stringify(this.#state);
    this.#state = state;
    if (changed && !this.#disposed) this.#options.onChange(state);
  }
}
