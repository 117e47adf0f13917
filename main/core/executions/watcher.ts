import type { ExecutionUpdate } from '../../contract/index.ts';
import type { ExecutionStatus, ServiceClient, ServiceErrorKind } from '../service-client/index.ts';
import { PollBudget, type PollRate } from './poll-budget.ts';
import { DEFAULT_POLL_BOUNDS, paceOf, type PollPace } from './poll-pace.ts';
import { withResultMetadata } from './result-metadata.ts';
import { toExecutionUpdate } from './snapshot.ts';

// Polls the status of executions until they end, and reports every status it reads as an
// `execution:update`. How often is poll-pace.ts's: fast while a run is young, slower as it ages,
// and the polls of one account within one shared rate, so that watching runs does not spend the
// account's rate limit. A poll the service refuses for its rate limit holds every poll of the
// account until the wait it asked for (Retry-After) is over, and the run's update says so.

export interface ExecutionWatcherOptions {
  emit: (update: ExecutionUpdate) => void;
  /** How the account's runs are polled; the default bounds' pace by default. */
  pace?: (accountId: string) => PollPace;
  now?: () => number;
}

export interface ExecutionWatcher {
  /** Starts watching from what is known now (unless it already ended) and returns that snapshot. */
  watch(accountId: string, client: ServiceClient, status: ExecutionStatus, startedAtMs?: number): ExecutionUpdate;
  latest(accountId: string, executionId: string): ExecutionUpdate | null;
  /** Polls at once (after a cancel, say) instead of waiting for the next turn. */
  pollNow(accountId: string, executionId: string): void;
  dispose(): void;
}

interface Watch {
  accountId: string;
  client: ServiceClient;
  executionId: string;
  startedAtMs: number;
  latest: ExecutionUpdate;
  timer: NodeJS.Timeout | null;
  polling: boolean;
  failures: number;
  done: boolean;
}

// Worth another try: the service or the network may recover. Anything else will not.
const TRANSIENT: ReadonlySet<ServiceErrorKind> = new Set(['unreachable', 'timeout', 'rate_limited', 'server_error']);
const MAX_REMEMBERED = 500;

export function createExecutionWatcher(options: ExecutionWatcherOptions): ExecutionWatcher {
  return new Poller(options);
}

const keyOf = (accountId: string, executionId: string) => `${accountId}\u0000${executionId}`;

class Poller implements ExecutionWatcher {
  readonly #emit: (update: ExecutionUpdate) => void;
  readonly #pace: (accountId: string) => PollPace;
  readonly #now: () => number;
  readonly #watches = new Map<string, Watch>();
  readonly #budgets = new Map<string, PollBudget>();
  /** Per account: no poll before this time, as the service asked when it refused one for its rate limit. */
  readonly #heldUntil = new Map<string, number>();
  readonly #controller = new AbortController();

  constructor(options: ExecutionWatcherOptions) {
    this.#emit = options.emit;
    this.#pace = options.pace ?? ((accountId) => paceOf(accountId, DEFAULT_POLL_BOUNDS));
    this.#now = options.now ?? Date.now;
  }

  watch(accountId: string, client: ServiceClient, status: ExecutionStatus, startedAtMs = this.#now()): ExecutionUpdate {
    const key = keyOf(accountId, status.executionId);
    const previous = this.#watches.get(key);
    if (previous) {
      // Silences the older watch of the same execution, even if one of its polls is in flight.
      previous.done = true;
      if (previous.timer) clearTimeout(previous.timer);
    }
    const update = toExecutionUpdate(accountId, status, this.#now() - startedAtMs);
    // Execute's answer may already be an end, and says nothing more of it (no times, error or
    // result): the status, which always says when it was submitted, is read once for the rest.
    const onlyExecuteSaid = update.isFinished && status.submittedAt === null;
    const watch: Watch = {
      accountId,
      client,
      executionId: status.executionId,
      startedAtMs,
      latest: update,
      timer: null,
      polling: false,
      failures: 0,
      done: update.isFinished && !onlyExecuteSaid,
    };
    this.#watches.set(key, watch);
    this.#emit(update);
    if (!watch.done) this.#schedule(watch, onlyExecuteSaid);
    else this.#forgetOldest();
    return update;
  }

  latest(accountId: string, executionId: string): ExecutionUpdate | null {
    const watch = this.#watches.get(keyOf(accountId, executionId));
    if (!watch) return null;
    return watch.done ? watch.latest : { ...watch.latest, elapsedMs: Math.round(this.#now() - watch.startedAtMs) };
  }

  pollNow(accountId: string, executionId: string): void {
    const watch = this.#watches.get(keyOf(accountId, executionId));
    if (!watch || watch.done || watch.polling || this.#controller.signal.aborted || this.#isHeld(accountId)) return;
    if (watch.timer) clearTimeout(watch.timer);
    // asked for (after a cancel), so sent now; still counted, so the account's next polls make up for it
    this.#budgets.get(accountId)?.reserve(this.#now());
    void this.#poll(watch);
  }

  dispose(): void {
    this.#controller.abort();
    for (const watch of this.#watches.values()) if (watch.timer) clearTimeout(watch.timer);
    this.#watches.clear();
    this.#budgets.clear();
    this.#heldUntil.clear();
  }

  #publish(watch: Watch, update: ExecutionUpdate): void {
    watch.latest = update;
    this.#emit(update);
  }

  /** Sets the run's next poll (at once when `atOnce`, within the account's rate); returns when it is. */
  #schedule(watch: Watch, atOnce = false): number {
    const now = this.#now();
    const pace = this.#pace(watch.accountId);
    const delay = atOnce ? 0 : pace.delay(now - watch.startedAtMs, watch.failures);
    const wantedAt = Math.max(now + delay, this.#heldUntil.get(watch.accountId) ?? now);
    const at = pace.rate === null ? wantedAt : this.#budgetOf(watch.accountId, pace.rate).reserve(wantedAt);
    watch.timer = setTimeout(() => void this.#poll(watch), at - now);
    watch.timer.unref();
    return at;
  }

  #isHeld(accountId: string): boolean {
    return (this.#heldUntil.get(accountId) ?? Number.NEGATIVE_INFINITY) > this.#now();
  }

  /** The service refused a poll for its rate limit: none of the account's before the wait it asked for, and the run says it waits. */
  #rateLimited(watch: Watch, retryAfterMs: number | undefined): void {
    if (retryAfterMs !== undefined) {
      const until = this.#now() + retryAfterMs;
      this.#heldUntil.set(watch.accountId, Math.max(until, this.#heldUntil.get(watch.accountId) ?? until));
    }
    const at = this.#schedule(watch);
    this.#publish(watch, {
      ...watch.latest,
      elapsedMs: Math.round(this.#now() - watch.startedAtMs),
      rateLimitedUntil: new Date(at).toISOString(),
    });
  }

  #budgetOf(accountId: string, rate: PollRate): PollBudget {
    let budget = this.#budgets.get(accountId);
    if (budget === undefined) {
      budget = new PollBudget(rate);
      this.#budgets.set(accountId, budget);
    }
    return budget;
  }

  #finish(watch: Watch): void {
    watch.done = true;
    this.#forgetOldest();
  }

  #forgetOldest(): void {
    if (this.#watches.size <= MAX_REMEMBERED) return;
    for (const [key, watch] of this.#watches) {
      if (watch.done) {
        this.#watches.delete(key);
        return;
      }
    }
  }

  async #poll(watch: Watch): Promise<void> {
    const { signal } = this.#controller;
    watch.timer = null;
    // another run of the account was refused for the rate limit since this poll was set
    if (this.#isHeld(watch.accountId)) {
      this.#schedule(watch);
      return;
    }
    watch.polling = true;
    const read = await watch.client.executions.status(watch.executionId, { signal });
    watch.polling = false;
    if (signal.aborted || watch.done) return;
    if (!read.ok) {
      if (TRANSIENT.has(read.error.kind)) {
        watch.failures += 1;
        if (read.error.kind === 'rate_limited') this.#rateLimited(watch, read.error.retryAfterMs);
        else this.#schedule(watch);
        return;
      }
      // The execution is gone or the key no longer works: say so once and stop.
      this.#finish(watch);
      const { rateLimitedUntil: _noLongerWaited, ...latest } = watch.latest;
      this.#publish(watch, {
        ...latest,
        elapsedMs: Math.round(this.#now() - watch.startedAtMs),
        error: { type: `watch_${read.error.kind}`, message: `Stopped watching this execution: ${read.error.message}` },
      });
      return;
    }
    watch.failures = 0;
    const status = await withResultMetadata(watch.client, read.data, signal);
    if (signal.aborted) return;
    const update = toExecutionUpdate(watch.accountId, status, this.#now() - watch.startedAtMs);
    if (update.isFinished) this.#finish(watch);
    this.#publish(watch, update);
    if (!update.isFinished) this.#schedule(watch);
  }
}
