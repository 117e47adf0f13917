import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CacheStatus } from '../../contract/index.ts';
import { isNetworkFailure, type ServiceClient } from '../service-client/index.ts';
import { openCacheDb, type CacheDb } from './cache-db.ts';
import { absentStatus, cachedStatus, downloadingStatus } from './cache-status.ts';
import { DownloadOutcomes } from './download-outcomes.ts';
import { AppClosing, columnsOf, stagingTableName, tableTypes } from './download.ts';
import { dropOrphans, listEntries, readEntry, removeEntry, touchEntry, type CacheEntry } from './manifest.ts';
import { startEarlyPages } from './page-fetch.ts';
import { PageFolds } from './page-folds.ts';
import { earlyRanges } from './page-ranges.ts';
import { pinKey, pinnedResults, Pins, type PinnedResults } from './pins.ts';
import type { ResultCache, ResultCacheOptions, StartOutcome } from './result-cache-api.ts';
import { entryOfShape, readResultShape } from './result-shape.ts';
import { ResumableDownloads } from './resumable-downloads.ts';
import { RunningDownloads, type DownloadSettings } from './running-downloads.ts';
import { valuesNotFitting } from './values-not-fitting.ts';

// The result cache: which results are held whole, which are on their way, and the budget they share.
// A result is downloaded only when the service says it fits the budget; older entries make room, least
// recently used first; expired entries go, and a pinned one makes no room for others until it expires.

export const DEFAULT_CACHE_BUDGET_BYTES = 2 * 1024 ** 3;
/** Pages of a download asked for at once, more over a link with a longer round trip (see fetch-window.ts). */
export const PAGES_IN_FLIGHT = { min: 6, max: 10 };

export type { ResultCache, ResultCacheOptions, StartOutcome } from './result-cache-api.ts';

/** last_used is rewritten at most this often per entry: every grid page would be too many writes. */
const TOUCH_INTERVAL_MS = 60_000;

export async function openResultCache(options: ResultCacheOptions): Promise<ResultCache> {
  const db = await openCacheDb(options.dir);
  const settings: DownloadSettings = {
    pageRows: options.pageRows ?? 30_000,
    pagesInFlight: options.pagesInFlight ?? PAGES_IN_FLIGHT,
    formats: options.pageFormats ?? 'parquet-or-csv',
    now: options.now ?? (() => new Date()),
  };
  const workRoot = join(options.dir, 'downloads');
  rmSync(workRoot, { recursive: true, force: true });
  const resumable = await ResumableDownloads.open(db, settings.now());
  await dropOrphans(db);
  // an entry whose pages could not be folded went: the windows showing it read from the service
  const folds = new PageFolds(db, (entry) => void cache.status(entry.accountId, entry.executionId).then(options.onStatus, () => undefined));
  const cache: CacheOnDisk = new CacheOnDisk(db, { resumable, folds, settings, workRoot }, options);
  await cache.evict(0);
  void folds.foldLeftovers().catch(() => undefined);
  return cache;
}

const expired = (entry: CacheEntry, now: Date) => entry.expiresAt !== null && Date.parse(entry.expiresAt) <= now.getTime();

class CacheOnDisk implements ResultCache {
  readonly db: CacheDb;
  readonly #resumable: ResumableDownloads;
  readonly #settings: DownloadSettings;
  /** Where downloads write their pages before they are loaded. */
  readonly #workRoot: string;
  readonly #options: ResultCacheOptions;
  readonly #outcomes = new DownloadOutcomes((accountId, executionId) => void this.#goOn(accountId, executionId).catch(() => undefined));
  readonly #downloads: RunningDownloads;
  #budgetBytes: number;
  readonly #pins: Pins;
  readonly pinned: PinnedResults;
  readonly #folds: PageFolds;

  constructor(
    db: CacheDb,
    parts: { resumable: ResumableDownloads; folds: PageFolds; settings: DownloadSettings; workRoot: string },
    options: ResultCacheOptions,
  ) {
    this.db = db;
    this.#pins = new Pins(options.dir);
    this.pinned = pinnedResults(this.#pins, () => this.evict(0));
    ({ resumable: this.#resumable, folds: this.#folds, settings: this.#settings, workRoot: this.#workRoot } = parts);
    this.#options = options;
    this.#budgetBytes = options.budgetBytes ?? DEFAULT_CACHE_BUDGET_BYTES;
    this.#downloads = new RunningDownloads({
      db,
      resumable: this.#resumable,
      outcomes: this.#outcomes,
      settings: this.#settings,
      report: (accountId, executionId) => void this.status(accountId, executionId).then(options.onStatus, () => undefined),
      onResumed: options.onResumed,
      onCached: (entry) => this.#folds.fold(entry),
    });
  }

  /** Drops expired entries, then the least recently used until `incoming` more bytes fit beside the downloads under way. */
  async evict(incoming: number): Promise<void> {
    const entries = await listEntries(this.db);
    let total = entries.reduce((sum, e) => sum + e.bytes, 0) + this.#downloads.totalBytes();
    const pinned = this.#pins.live(this.#settings.now());
    for (const entry of entries) {
      const kept = pinned.has(pinKey(entry.accountId, entry.executionId)) || total + incoming <= this.#budgetBytes;
      if (!expired(entry, this.#settings.now()) && kept) continue;
      await this.#remove(entry);
      total -= entry.bytes;
    }
  }

  /** Removes an entry, and tells the windows showing it that it is no longer cached. */
  async #remove(entry: CacheEntry): Promise<void> {
    await removeEntry(this.db, entry);
    this.#options.onStatus(await this.status(entry.accountId, entry.executionId));
  }

  async #drop(isDropped: (accountId: string) => boolean): Promise<void> {
    this.#outcomes.stopWaiting(isDropped);
    await this.#downloads.stop(isDropped);
    await this.#resumable.drop(isDropped);
    this.#pins.drop((pin) => isDropped(pin.accountId));
    for (const entry of await listEntries(this.db)) if (isDropped(entry.accountId)) await this.#remove(entry);
    await this.#giveSpaceBack();
  }

  /** After entries went, the file gives their space back, unless a download is under way (see cache-db.ts). */
  async #giveSpaceBack(): Promise<void> {
    if (this.#downloads.size === 0) await this.db.compactWhenIdle().catch(() => undefined);
  }

  async status(accountId: string, executionId: string): Promise<CacheStatus> {
    const download = this.#downloads.get(accountId, executionId);
    if (download) return downloadingStatus(download.shape, download.rowsLoaded, this.#budgetBytes);
    const entry = await readEntry(this.db, accountId, executionId);
    if (entry && !expired(entry, this.#settings.now()))
      return cachedStatus(entry, await valuesNotFitting(this.db, entry), this.#budgetBytes);
    return { ...absentStatus(accountId, executionId, this.#budgetBytes), ...this.#outcomes.get(accountId, executionId) };
  }

  async start(
    accountId: string,
    client: ServiceClient,
    executionId: string,
    allowPartial: boolean,
    knownRows: number | null = null,
  ): Promise<StartOutcome> {
    if (this.#downloads.has(accountId, executionId)) return { ok: true, data: await this.status(accountId, executionId) };
    const current = await this.status(accountId, executionId);
    if (current.state === 'cached') return { ok: true, data: current };
    // The first pages are asked for beside the status, not after it: a round trip less before the
    // rows come. They are dropped when the status says the result is not to be cached.
    const { pageRows, pagesInFlight, formats } = this.#settings;
    const tableName = stagingTableName();
    const workDir = join(this.#workRoot, tableName);
    mkdirSync(workDir, { recursive: true });
    const controller = new AbortController();
    const from = this.#resumable.get(accountId, executionId)?.rows ?? 0;
    const ahead = earlyRanges(
      from,
      knownRows ?? this.#options.knownRowCount?.(accountId, executionId) ?? null,
      pageRows,
      pagesInFlight.max,
    );
    const early = startEarlyPages({ client, executionId, allowPartial, formats, workDir }, ahead, controller.signal);
    const read = await readResultShape(client, accountId, executionId, allowPartial);
    const refuse = async (outcome: StartOutcome): Promise<StartOutcome> => {
      void early.discard().then(() => rmSync(workDir, { recursive: true, force: true }));
      return outcome;
    };
    if (!read.ok) return refuse({ ok: false, error: read.error });
    const { shape, roundTripMs } = read.data;
    if (shape.totalBytes > this.#budgetBytes) {
      this.#outcomes.tooLarge(shape);
      return refuse({ ok: true, data: await this.status(accountId, executionId) });
    }
    // the start may have raced with another for the same result while the status was read
    if (this.#downloads.has(accountId, executionId) || (this.#resumable.get(accountId, executionId)?.rows ?? 0) !== from) {
      return refuse({ ok: true, data: await this.status(accountId, executionId) });
    }
    await this.evict(shape.totalBytes);
    this.#downloads.launch(shape, client, { roundTripMs, controller, tableName, workDir, early, allowPartial });
    return { ok: true, data: await this.status(accountId, executionId) };
  }

  async cancel(accountId: string, executionId: string): Promise<CacheStatus> {
    const download = this.#downloads.get(accountId, executionId);
    if (download) {
      download.controller.abort();
      await download.done;
    } else if (this.#outcomes.cancelWait(accountId, executionId)) this.#options.onStatus(await this.status(accountId, executionId));
    return this.status(accountId, executionId);
  }

  async use(accountId: string, executionId: string): Promise<CacheEntry | null> {
    const entry = await readEntry(this.db, accountId, executionId);
    if (entry === null) return null;
    if (expired(entry, this.#settings.now())) {
      await removeEntry(this.db, entry);
      return null;
    }
    const at = this.#settings.now();
    if (at.getTime() - Date.parse(entry.lastUsed) > TOUCH_INTERVAL_MS) await touchEntry(this.db, entry, at.toISOString());
    return entry;
  }

  async interruptedRows(accountId: string, executionId: string): Promise<{ entry: CacheEntry; rows: number } | null> {
    const interrupted = this.#outcomes.interruptedOf(accountId, executionId);
    const rows = this.#resumable.get(accountId, executionId);
    if (interrupted === null || rows === null || this.#downloads.has(accountId, executionId)) return null;
    const { shape, keptAt } = interrupted;
    const columns = columnsOf(shape, await tableTypes(this.db, rows.tableName));
    // the whole result's rows, which a page says it is one of
    const entry = entryOfShape(shape, { tableName: rows.tableName, columns, rowCount: shape.totalRowCount, bytes: 0 }, keptAt);
    return { entry, rows: rows.rows };
  }

  async resumeInterrupted(accountId: string): Promise<void> {
    for (const executionId of this.#outcomes.interrupted(accountId)) await this.#goOn(accountId, executionId);
  }

  /** An interrupted download goes on from the rows it kept: the service answers again, or the rate limit's wait is over. */
  async #goOn(accountId: string, executionId: string): Promise<void> {
    const how = this.#outcomes.goOnWith(accountId, executionId);
    if (how === null) return;
    const started = await this.start(accountId, how.client, executionId, how.allowPartial);
    if (started.ok) return;
    const { error } = started;
    // refused for the rate limit again: it waits again; the network failed: it waits for the service
    if (error.kind === 'rate_limited') this.#outcomes.waitForLimit(accountId, executionId, error, this.#settings.now().toISOString());
    else if (error.kind !== 'partial_result' && isNetworkFailure(error)) return;
    // the service answers, and says no (the result expired, say): the download cannot go on
    else this.#outcomes.refused(accountId, executionId, error.message);
    this.#options.onStatus(await this.status(accountId, executionId));
  }

  forgetAccount(accountId: string): Promise<void> {
    return this.#drop((ofAccount) => ofAccount === accountId);
  }

  clear(): Promise<void> {
    return this.#drop(() => true);
  }

  async setBudget(bytes: number): Promise<void> {
    this.#budgetBytes = bytes;
    await this.evict(0);
    await this.#giveSpaceBack();
  }

  async usage(): Promise<{ budgetBytes: number; usedBytes: number; entryCount: number }> {
    const entries = await listEntries(this.db);
    return { budgetBytes: this.#budgetBytes, usedBytes: entries.reduce((sum, e) => sum + e.bytes, 0), entryCount: entries.length };
  }

  folded(): Promise<void> {
    return this.#folds.settled();
  }

  async close(): Promise<void> {
    // downloads under way, and those waiting out the rate limit, keep the rows they have, for the next start of the app to go on from
    this.#outcomes.stopWaiting(() => true);
    await this.#downloads.stop(() => true, new AppClosing());
    // a fold under way is cut short, and done again at the next open; DuckDB closes once it has stopped
    await this.#folds.close();
    await this.db.close();
  }
}
