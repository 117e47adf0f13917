import type { CacheStatus, Result } from '../../contract/index.ts';
import type { ServiceClient } from '../service-client/index.ts';
import type { CacheDb } from './cache-db.ts';
import type { CacheEntry } from './manifest.ts';
import type { PageFormats } from './page-fetch.ts';
import type { PinnedResults } from './pins.ts';
import type { ShapeRefusal } from './result-shape.ts';

// What the result cache offers the rest of the app (see result-cache.ts), and how it is opened.

export interface ResultCacheOptions {
  dir: string;
  budgetBytes?: number;
  /** Progress and outcome of downloads, and entries removed, for the renderer. */
  onStatus: (status: CacheStatus) => void;
  /** A download goes on from the rows an earlier one left on disk (for the log). */
  onResumed?: (accountId: string, executionId: string, fromRow: number) => void;
  pageRows?: number;
  pagesInFlight?: { min: number; max: number };
  /** What download pages are asked for as; Parquet where the service can send it unless told. */
  pageFormats?: PageFormats;
  /** A result's rows as the app last saw them (the run it watched end), or null when it does not know. */
  knownRowCount?: (accountId: string, executionId: string) => number | null;
  now?: () => Date;
}

export type StartOutcome = Result<CacheStatus, ShapeRefusal>;

export interface ResultCache {
  readonly db: CacheDb;
  status(accountId: string, executionId: string): Promise<CacheStatus>;
  /**
   * Starts downloading the whole result in the background when it fits; answers at once.
   * `knownRows`: the result's rows as the caller just read them, if it did (see earlyRanges).
   */
  start(
    accountId: string,
    client: ServiceClient,
    executionId: string,
    allowPartial: boolean,
    knownRows?: number | null,
  ): Promise<StartOutcome>;
  cancel(accountId: string, executionId: string): Promise<CacheStatus>;
  /** The complete, unexpired entry, marked as used now; null when the result is not cached. */
  use(accountId: string, executionId: string): Promise<CacheEntry | null>;
  /**
   * The rows a download kept while it is interrupted (it waits for the service to answer), to be
   * read as the first `rows` of the result: an entry of the whole result's shape over the kept table.
   */
  interruptedRows(accountId: string, executionId: string): Promise<{ entry: CacheEntry; rows: number } | null>;
  /**
   * The account's service answers again: its downloads the network broke off go on, each from
   * the rows it kept. A download that broke off again without a row more is left after a few.
   */
  resumeInterrupted(accountId: string): Promise<void>;
  /** Drops every entry of an account (it was removed), and stops its downloads. */
  forgetAccount(accountId: string): Promise<void>;
  /** Drops every entry and stops every download (the user asked to clear the cache). */
  clear(): Promise<void>;
  /** A new budget; entries past it are evicted at once, least recently used first. */
  setBudget(bytes: number): Promise<void>;
  usage(): Promise<{ budgetBytes: number; usedBytes: number; entryCount: number }>;
  readonly pinned: PinnedResults;
  /** Resolves once the downloads ended so far have their pages folded into tables (see page-folds.ts). */
  folded(): Promise<void>;
  close(): Promise<void>;
}
