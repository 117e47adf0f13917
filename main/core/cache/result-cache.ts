import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CacheStatus, Result } from '../../contract/index.ts';
import { isNetworkFailure, type ServiceClient } from '../service-client/index.ts';
import { openCacheDb, type CacheDb } from './cache-db.ts';
import { absentStatus, cachedStatus, downloadingStatus } from './cache-status.ts';
import { DownloadOutcomes } from './download-outcomes.ts';
import { AppClosing, columnsOf, downloadResult, stagingTableName, tableTypes, type ResultShape } from './download.ts';
import { KeptDownloads } from './kept-downloads.ts';
import { dropOrphans, listEntries, readEntry, removeEntry, touchEntry, type CacheEntry } from './manifest.ts';
import { startEarlyPages, type EarlyPages, type PageFormats } from './page-fetch.ts';
import { earlyRanges } from './page-ranges.ts';
import { readResultShape, type ShapeRefusal } from './result-shape.ts';
import { valuesNotFitting } from './values-not-fitting.ts';

// The result cache: which results are held whole, which are on their way, and the budget they
// share. A result is downloaded only when the service says it fits the budget; older entries
// make room, least recently used first, and entries past their expiry are dropped.

export const DEFAULT_CACHE_BUDGET_BYTES = 2 * 1024 ** 3;
/** Pages of a download asked for at once, more over a link with a longer round trip (see fetch-window.ts). */
export const PAGES_IN_FLIGHT = { min: 6, max: 10 };

export interface ResultCacheOptions {
  dir: string;
  budgetBytes?: number;
  /** Progress and outcome of downloads, for the renderer. */
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
  start(accountId: string, client: ServiceClient, executionId: string, allowPartial: boolean, knownRows?: number | null): Promise<StartOutcome>;
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
  close(): Promise<void>;
}

interface Download {
  controller: AbortController;
  rowsLoaded: number;
  shape: ResultShape;
  done: Promise<void>;
}

/** last_used is rewritten at most this often per entry: every grid page would be too many writes. */
const TOUCH_INTERVAL_MS = 60_000;

export async function openResultCache(options: ResultCacheOptions): Promise<ResultCache> {
  const db = await openCacheDb(options.dir);
  let budgetBytes = options.budgetBytes ?? DEFAULT_CACHE_BUDGET_BYTES;
  const now = options.now ?? (() => new Date());
  const downloads = new Map<string, Download>();
  const outcomes = new DownloadOutcomes();
  const keyOf = (accountId: string, executionId: string) => `${accountId}\n${executionId}`;
  const workRoot = join(options.dir, 'downloads');
  const pageRows = options.pageRows ?? 30_000;
  const pagesInFlight = options.pagesInFlight ?? PAGES_IN_FLIGHT;
  const formats = options.pageFormats ?? 'parquet-or-csv';
  rmSync(workRoot, { recursive: true, force: true });
  const kept = await KeptDownloads.open(db, now());
  await dropOrphans(db);
  await evict(0);

  function isExpired(entry: CacheEntry): boolean {
    return entry.expiresAt !== null && Date.parse(entry.expiresAt) <= now().getTime();
  }

  /** Drops expired entries, then the least recently used until `incoming` more bytes fit beside the downloads under way. */
  async function evict(incoming: number): Promise<void> {
    const entries = await listEntries(db);
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    for (const download of downloads.values()) total += download.shape.totalBytes;
    for (const entry of entries) {
      if (!isExpired(entry) && total + incoming <= budgetBytes) continue;
      await removeEntry(db, entry);
      total -= entry.bytes;
    }
  }

  async function drop(isDropped: (accountId: string) => boolean): Promise<void> {
    const stopping = [...downloads.values()].filter((d) => isDropped(d.shape.accountId));
    for (const download of stopping) download.controller.abort();
    await Promise.all(stopping.map((d) => d.done));
    await kept.drop(isDropped);
    for (const entry of await listEntries(db)) if (isDropped(entry.accountId)) await removeEntry(db, entry);
    await giveSpaceBack();
  }

  /** After entries went, the file gives their space back, unless a download is under way (see cache-db.ts). */
  async function giveSpaceBack(): Promise<void> {
    if (downloads.size === 0) await db.compactWhenIdle().catch(() => undefined);
  }

  async function status(accountId: string, executionId: string): Promise<CacheStatus> {
    const download = downloads.get(keyOf(accountId, executionId));
    if (download) return downloadingStatus(download.shape, download.rowsLoaded, budgetBytes);
    const entry = await readEntry(db, accountId, executionId);
    if (entry && !isExpired(entry)) return cachedStatus(entry, await valuesNotFitting(db, entry), budgetBytes);
    return { ...absentStatus(accountId, executionId, budgetBytes), ...outcomes.get(accountId, executionId) };
  }

  /** The download of a result whose first pages were asked for already (see start). */
  function launch(
    shape: ResultShape,
    client: ServiceClient,
    started: { roundTripMs: number; controller: AbortController; tableName: string; workDir: string; early: EarlyPages; allowPartial: boolean },
  ): Download {
    const key = keyOf(shape.accountId, shape.executionId);
    const resume = kept.get(shape.accountId, shape.executionId);
    const fruitless = outcomes.started(shape.accountId, shape.executionId);
    const { controller, tableName } = started;
    const download: Download = { controller, rowsLoaded: 0, shape, done: Promise.resolve() };
    downloads.set(key, download);
    const report = () => void status(shape.accountId, shape.executionId).then(options.onStatus, () => undefined);
    if (resume !== null) options.onResumed?.(shape.accountId, shape.executionId, resume.rows);
    download.done = downloadResult(
      {
        db,
        client,
        shape,
        workDir: started.workDir,
        pageRows,
        window: { ...pagesInFlight, roundTripMs: started.roundTripMs },
        early: started.early,
        formats,
        signal: controller.signal,
        onRows: (rows) => {
          download.rowsLoaded = rows;
          report();
        },
        now: () => now().toISOString(),
      },
      tableName,
      resume,
    )
      .then(async (outcome) => {
        // kept rows stay named until the download that goes on from them ends, so a crash meanwhile loses nothing
        if (!outcome.ok && outcome.kept !== null) await kept.keep(shape.accountId, shape.executionId, outcome.kept, now());
        else if (resume !== null) await kept.settled(shape.accountId, shape.executionId, resume);
        if (outcome.ok) return;
        const ended = { rowsLoaded: outcome.kept?.rows ?? 0, resumedFrom: resume?.rows ?? 0, fruitless, client, allowPartial: started.allowPartial, at: now().toISOString() };
        outcomes.brokenOff(shape, outcome.error, ended);
      })
      .catch((error: unknown) => outcomes.crashed(shape, error))
      .finally(() => {
        downloads.delete(key);
        report();
      });
    return download;
  }

  const cache: ResultCache = {
    db,
    status,

    async start(accountId, client, executionId, allowPartial, knownRows = null) {
      const key = keyOf(accountId, executionId);
      if (downloads.has(key)) return { ok: true, data: await status(accountId, executionId) };
      const current = await status(accountId, executionId);
      if (current.state === 'cached') return { ok: true, data: current };
      // The first pages are asked for beside the status, not after it: a round trip less before the
      // rows come. They are dropped when the status says the result is not to be cached.
      const tableName = stagingTableName();
      const workDir = join(workRoot, tableName);
      mkdirSync(workDir, { recursive: true });
      const controller = new AbortController();
      const from = kept.get(accountId, executionId)?.rows ?? 0;
      const ahead = earlyRanges(from, knownRows ?? options.knownRowCount?.(accountId, executionId) ?? null, pageRows, pagesInFlight.max);
      const early = startEarlyPages({ client, executionId, allowPartial, formats, workDir }, ahead, controller.signal);
      const read = await readResultShape(client, accountId, executionId, allowPartial);
      const refuse = async (outcome: StartOutcome): Promise<StartOutcome> => {
        void early.discard().then(() => rmSync(workDir, { recursive: true, force: true }));
        return outcome;
      };
      if (!read.ok) return refuse({ ok: false, error: read.error });
      const { shape, roundTripMs } = read.data;
      if (shape.totalBytes > budgetBytes) {
        outcomes.tooLarge(shape);
        return refuse({ ok: true, data: await status(accountId, executionId) });
      }
      // the start may have raced with another for the same result while the status was read
      if (downloads.has(key) || (kept.get(accountId, executionId)?.rows ?? 0) !== from) return refuse({ ok: true, data: await status(accountId, executionId) });
      await evict(shape.totalBytes);
      launch(shape, client, { roundTripMs, controller, tableName, workDir, early, allowPartial });
      return { ok: true, data: await status(accountId, executionId) };
    },

    async cancel(accountId, executionId) {
      const download = downloads.get(keyOf(accountId, executionId));
      if (download) {
        download.controller.abort();
        await download.done;
      }
      return status(accountId, executionId);
    },

    async use(accountId, executionId) {
      const entry = await readEntry(db, accountId, executionId);
      if (entry === null) return null;
      if (isExpired(entry)) {
        await removeEntry(db, entry);
        return null;
      }
      const at = now();
      if (at.getTime() - Date.parse(entry.lastUsed) > TOUCH_INTERVAL_MS) await touchEntry(db, entry, at.toISOString());
      return entry;
    },

    async interruptedRows(accountId, executionId) {
      const interrupted = outcomes.interruptedOf(accountId, executionId);
      const rows = kept.get(accountId, executionId);
      if (interrupted === null || rows === null || downloads.has(keyOf(accountId, executionId))) return null;
      const { shape, keptAt } = interrupted;
      const columns = columnsOf(shape, await tableTypes(db, rows.tableName));
      const entry: CacheEntry = {
        accountId, executionId, tableName: rows.tableName, columns, wireTypes: shape.wireTypes,
        // the whole result's rows, which a page says it is one of
        rowCount: shape.totalRowCount, bytes: 0, isPartial: shape.isPartial, expiresAt: shape.expiresAt, fetchedAt: keptAt, lastUsed: keptAt,
      };
      return { entry, rows: rows.rows };
    },

    async resumeInterrupted(accountId) {
      for (const { executionId, client, allowPartial } of outcomes.interrupted(accountId)) {
        const started = await cache.start(accountId, client, executionId, allowPartial);
        if (started.ok || (started.error.kind !== 'partial_result' && isNetworkFailure(started.error))) continue;
        // the service answers, and says no (the result expired, say): the download cannot go on
        outcomes.refused(accountId, executionId, started.error.message);
        options.onStatus(await status(accountId, executionId));
      }
    },

    forgetAccount: (accountId) => drop((ofAccount) => ofAccount === accountId),
    clear: () => drop(() => true),

    async setBudget(bytes) {
      budgetBytes = bytes;
      await evict(0);
      await giveSpaceBack();
    },

    async usage() {
      const entries = await listEntries(db);
      return { budgetBytes, usedBytes: entries.reduce((sum, e) => sum + e.bytes, 0), entryCount: entries.length };
    },

    async close() {
      // downloads under way keep the rows they have, for the next start of the app to go on from
      for (const download of downloads.values()) download.controller.abort(new AppClosing());
      await Promise.all([...downloads.values()].map((d) => d.done));
      await db.close();
    },
  };
  return cache;
}
