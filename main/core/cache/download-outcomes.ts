import type { CacheStatus } from '../../contract/index.ts';
import { isNetworkFailure, type ServiceClient, type ServiceError } from '../service-client/index.ts';
import type { ResultShape } from './download.ts';

// How the downloads no longer under way ended, for their status to say so: refused as too large,
// broken off by the network (and then how to go on when the service answers again) or by the
// service's rate limit (and then when it goes on by itself), failed or cancelled. Held for this
// session only; the rows a broken-off download kept are in the cache file (resumable-downloads.ts).

/** Times in a row an interrupted download goes on by itself and breaks off again with no row more. */
const FRUITLESS_RESUMES = 3;
/**
 * How long a download the rate limit broke off waits when the service did not say (Dune sends no
 * Retry-After): its limits count requests per minute, so a minute on the count is fresh.
 */
export const RATE_LIMIT_WAIT_MS = 60_000;

export type Outcome = Pick<CacheStatus, 'error' | 'totalRowCount' | 'bytes' | 'resumesAt'> & {
  state: 'too_large' | 'interrupted' | 'failed' | 'cancelled';
  rowsLoaded?: number;
};

/**
 * How an interrupted download goes on, and how many times in a row it went on without a row more;
 * with the result it was of and when its rows were kept, for those rows to be read meanwhile.
 */
interface Resume {
  client: ServiceClient;
  allowPartial: boolean;
  fruitless: number;
  shape: ResultShape;
  keptAt: string;
}

type Held = Outcome & { resume?: Resume };

const keyOf = (accountId: string, executionId: string) => `${accountId}\n${executionId}`;

export class DownloadOutcomes {
  readonly #held = new Map<string, Held>();
  /** The downloads waiting out the rate limit, each until it goes on. */
  readonly #waits = new Map<string, NodeJS.Timeout>();
  readonly #goOn: (accountId: string, executionId: string) => void;

  /** `goOn`: a download that waited out the rate limit is to go on now (see goOnWith). */
  constructor(goOn: (accountId: string, executionId: string) => void) {
    this.#goOn = goOn;
  }

  /** How the download ended, as its status shows it; undefined when none ended (or one started since). */
  get(accountId: string, executionId: string): Outcome | undefined {
    const held = this.#held.get(keyOf(accountId, executionId));
    if (held === undefined) return undefined;
    const { resume: _howToResume, ...outcome } = held;
    return outcome;
  }

  tooLarge(shape: ResultShape): void {
    const bytes = Number.isFinite(shape.totalBytes) ? shape.totalBytes : null;
    this.#held.set(keyOf(shape.accountId, shape.executionId), {
      state: 'too_large',
      error: null,
      totalRowCount: shape.totalRowCount,
      bytes,
    });
  }

  /** A download of the result starts: what became of the last is forgotten, but for how often it went on in vain (returned). */
  started(accountId: string, executionId: string): number {
    const key = keyOf(accountId, executionId);
    const fruitless = this.#held.get(key)?.resume?.fruitless ?? 0;
    this.#held.delete(key);
    this.#stopWait(key);
    return fruitless;
  }

  /**
   * A download ended before its last row, with `rowsLoaded` rows kept, having gone on from
   * `resumedFrom` rows (0 when it did not) after `fruitless` resumes in a row that got no row more.
   * A network failure leaves it interrupted, to go on when the service answers, unless it keeps
   * breaking off without a row more; the rate limit, to go on once its wait is over (not counted as
   * going on in vain: the service refused to send, it did not fail).
   */
  brokenOff(
    shape: ResultShape,
    error: ServiceError,
    ended: { rowsLoaded: number; resumedFrom: number; fruitless: number; client: ServiceClient; allowPartial: boolean; at: string },
  ): void {
    const key = keyOf(shape.accountId, shape.executionId);
    const broken = { error: error.message, totalRowCount: shape.totalRowCount, bytes: shape.totalBytes, rowsLoaded: ended.rowsLoaded };
    const again = ended.rowsLoaded > ended.resumedFrom ? 0 : ended.fruitless + 1;
    const rateLimited = error.kind === 'rate_limited';
    if (rateLimited || (isNetworkFailure(error) && again < FRUITLESS_RESUMES)) {
      const fruitless = rateLimited ? ended.fruitless : again;
      this.#held.set(key, {
        state: 'interrupted',
        ...broken,
        resume: { client: ended.client, allowPartial: ended.allowPartial, fruitless, shape, keptAt: ended.at },
      });
      if (rateLimited) this.waitForLimit(shape.accountId, shape.executionId, error, ended.at);
    } else this.#held.set(key, { state: error.kind === 'cancelled' ? 'cancelled' : 'failed', ...broken });
  }

  /**
   * The service refused an interrupted download's pages (or its going on) for its rate limit, `at`:
   * it goes on by itself once the wait the service asked for is over, and says until when.
   */
  waitForLimit(accountId: string, executionId: string, error: ServiceError, at: string): void {
    const key = keyOf(accountId, executionId);
    const held = this.#held.get(key);
    if (held?.state !== 'interrupted' || held.resume === undefined) return;
    const waitMs = error.retryAfterMs ?? RATE_LIMIT_WAIT_MS;
    this.#stopWait(key);
    const waiting = { ...held, error: error.message };
    const timer = setTimeout(() => {
      this.#waits.delete(key);
      this.#held.set(key, waiting);
      this.#goOn(accountId, executionId);
    }, waitMs);
    timer.unref();
    this.#waits.set(key, timer);
    this.#held.set(key, { ...waiting, resumesAt: new Date(Date.parse(at) + waitMs).toISOString() });
  }

  /** How an interrupted download goes on; null when none is. */
  goOnWith(accountId: string, executionId: string): { client: ServiceClient; allowPartial: boolean } | null {
    const held = this.#held.get(keyOf(accountId, executionId));
    return held?.state === 'interrupted' && held.resume !== undefined
      ? { client: held.resume.client, allowPartial: held.resume.allowPartial }
      : null;
  }

  /** A download waiting out the rate limit is cancelled (its rows stay kept for a later start); false when none waits. */
  cancelWait(accountId: string, executionId: string): boolean {
    const key = keyOf(accountId, executionId);
    const held = this.#held.get(key);
    if (!this.#waits.has(key) || held === undefined) return false;
    this.#stopWait(key);
    this.#held.set(key, goesOnNoMore(held, 'cancelled', null));
    return true;
  }

  /** The downloads of the accounts `isStopped` names wait out the rate limit no more: the account or the cache went, or the app closes. */
  stopWaiting(isStopped: (accountId: string) => boolean): void {
    for (const key of [...this.#waits.keys()]) {
      const accountId = key.slice(0, key.indexOf('\n'));
      if (!isStopped(accountId)) continue;
      this.#stopWait(key);
      this.#held.set(key, goesOnNoMore(this.#held.get(key)!, 'cancelled', null));
    }
  }

  #stopWait(key: string): void {
    clearTimeout(this.#waits.get(key));
    this.#waits.delete(key);
  }

  /** A download that threw rather than ending with an outcome. */
  crashed(shape: ResultShape, error: unknown): void {
    this.#held.set(keyOf(shape.accountId, shape.executionId), {
      state: 'failed',
      error: error instanceof Error ? error.message : String(error),
      totalRowCount: shape.totalRowCount,
      bytes: shape.totalBytes,
    });
  }

  /** The account's downloads the network interrupted (not those waiting out the rate limit, which go on at their time). */
  interrupted(accountId: string): string[] {
    return [...this.#held]
      .filter(
        ([key, held]) =>
          held.state === 'interrupted' && held.resume !== undefined && !this.#waits.has(key) && key.startsWith(`${accountId}\n`),
      )
      .map(([key]) => key.slice(accountId.length + 1));
  }

  /** The result of a download that is interrupted, and when its rows were kept; null when none is. */
  interruptedOf(accountId: string, executionId: string): { shape: ResultShape; keptAt: string } | null {
    const held = this.#held.get(keyOf(accountId, executionId));
    return held?.state === 'interrupted' && held.resume !== undefined ? { shape: held.resume.shape, keptAt: held.resume.keptAt } : null;
  }

  /** The service answered an interrupted download's going on with a no (the result expired, say): it cannot go on. */
  refused(accountId: string, executionId: string, message: string): void {
    const key = keyOf(accountId, executionId);
    const held = this.#held.get(key);
    if (held !== undefined) this.#held.set(key, goesOnNoMore(held, 'failed', message));
  }
}

/** An interrupted download's outcome once it will not go on: `state`, saying `error`. */
function goesOnNoMore(held: Held, state: 'failed' | 'cancelled', error: string | null): Held {
  const { resume: _noLonger, resumesAt: _notAnyMore, ...outcome } = held;
  return { ...outcome, state, error };
}
