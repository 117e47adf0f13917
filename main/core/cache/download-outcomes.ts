import type { CacheStatus } from '../../contract/index.ts';
import { isNetworkFailure, type ServiceClient, type ServiceError } from '../service-client/index.ts';
import type { ResultShape } from './download.ts';

// How the downloads no longer under way ended, for their status to say so: refused as too large,
// broken off by the network (and then how to go on when the service answers again), failed or
// cancelled. Held for this session only; the rows a broken-off download kept are in the cache
// file (resumable-downloads.ts).

/** Times in a row an interrupted download goes on by itself and breaks off again with no row more. */
const FRUITLESS_RESUMES = 3;

export type Outcome = Pick<CacheStatus, 'error' | 'totalRowCount' | 'bytes'> & {
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
    return fruitless;
  }

  /**
   * A download ended before its last row, with `rowsLoaded` rows kept, having gone on from
   * `resumedFrom` rows (0 when it did not) after `fruitless` resumes in a row that got no row more.
   * A network failure leaves it interrupted, to go on when the service answers, unless it keeps
   * breaking off without a row more.
   */
  brokenOff(
    shape: ResultShape,
    error: ServiceError,
    ended: { rowsLoaded: number; resumedFrom: number; fruitless: number; client: ServiceClient; allowPartial: boolean; at: string },
  ): void {
    const key = keyOf(shape.accountId, shape.executionId);
    const broken = { error: error.message, totalRowCount: shape.totalRowCount, bytes: shape.totalBytes, rowsLoaded: ended.rowsLoaded };
    const again = ended.rowsLoaded > ended.resumedFrom ? 0 : ended.fruitless + 1;
    if (isNetworkFailure(error) && again < FRUITLESS_RESUMES) {
      this.#held.set(key, {
        state: 'interrupted',
        ...broken,
        resume: { client: ended.client, allowPartial: ended.allowPartial, fruitless: again, shape, keptAt: ended.at },
      });
    } else this.#held.set(key, { state: error.kind === 'cancelled' ? 'cancelled' : 'failed', ...broken });
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

  /** The account's interrupted downloads, with how each goes on. */
  interrupted(accountId: string): { executionId: string; client: ServiceClient; allowPartial: boolean }[] {
    return [...this.#held]
      .filter(([key, held]) => held.state === 'interrupted' && held.resume !== undefined && key.startsWith(`${accountId}\n`))
      .map(([key, held]) => ({
        executionId: key.slice(accountId.length + 1),
        client: held.resume!.client,
        allowPartial: held.resume!.allowPartial,
      }));
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
    if (held !== undefined) this.#held.set(key, { ...held, state: 'failed', error: message, resume: undefined });
  }
}
