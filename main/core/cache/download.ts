import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { Failure } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import type { ServiceClient, ServiceError } from '../service-client/index.ts';
import type { CacheDb } from './cache-db.ts';
import { createFetchWindow, type WindowOptions } from './fetch-window.ts';
import { dropTable, swapIn, type CacheEntry } from './manifest.ts';
import { misfitOf, MisfitColumn, widerStorage } from './page-casts.ts';
import { DownloadFailure, fetchPage, type EarlyPages, type PageFormats, type PageSource } from './page-fetch.ts';
import { FaultyPages } from './page-inserts.ts';
import { createPageKeeper, type PageKeeper } from './page-keeper.ts';
import { createPageLoader, type LoaderOptions, type PageLoader } from './page-loader.ts';
import { PageRanges } from './page-ranges.ts';
import { pagesFolder } from './pages-view.ts';
import { entryOfShape, type ResultShape } from './result-shape.ts';
import { recordResumePoint, type ResumePoint } from './resumable-downloads.ts';
import { columnDefinition } from './storage-types.ts';

// A whole result into the cache, page by page: several pages in flight at once (the first ones
// asked for beside the result's status, see result-cache.ts), each asked for as Parquet and taken
// as CSV when that is what the service sends (see page-fetch.ts), its body streamed to a file as
// it arrives (never held as text), and loaded by DuckDB in result order into a staging table as
// soon as it follows on from the rows loaded (see page-loader.ts); the table becomes the entry in
// one transaction at the end. A new download's Parquet pages are not loaded as they come: they are
// kept where they lie, and read in place as the entry's rows until a fold puts them in the table
// (see page-keeper.ts). Until then the previous entry (if any) stays as it was, whatever
// happens to this download. A download the network, the service, the app closing or a kill broke
// off keeps its staging table with the rows loaded, so that the next one goes on from there (see
// resumable-downloads.ts): the loads are committed every so often with the record of where they end.

/** Pages arrived and not loaded yet: a bound on the disk they take while the loads fall behind. */
const WAITING_PAGES = 16;
/** Rows at most to one load statement while pages come (see page-loader.ts), which loads what has arrived whenever it is free. */
const LOAD_BATCH_ROWS = 150_000;
/**
 * The loads are committed once this many rows (four of DuckDB's row groups) or this long have
 * passed since the last commit: what a kill of the app can lose of a download. Each commit waits
 * for the disk between two loads, and the loads are what a download over a fast link waits for
 * once its last byte has come: a commit every row group held the million-row demo result's loads
 * seven times.
 */
export const COMMIT_EVERY = { rows: 4 * 122_880, millis: 2_000 };

export type { ResultShape } from './result-shape.ts';

export interface DownloadOptions {
  db: CacheDb;
  client: ServiceClient;
  shape: ResultShape;
  /** A folder for the page files; removed at the end. */
  workDir: string;
  pageRows: number;
  /** Rows at most to one load statement while pages come; 150,000 unless told. */
  loadBatchRows?: number;
  /** How often the loads are committed, in rows or time; COMMIT_EVERY unless told. */
  commitEvery?: { rows: number; millis: number };
  /** The first pages, asked for before the result's size was known, from the row the download starts at. */
  early?: EarlyPages;
  /** What the pages are asked for as; Parquet where the service can send it unless told. */
  formats?: PageFormats;
  /** Pages asked for at once: how many, within these bounds, follows the link (see fetch-window.ts). */
  window: WindowOptions;
  signal: AbortSignal;
  /** Progress: the rows arrived so far (they are loaded soon after, as they follow on). */
  onRows: (rowsArrived: number) => void;
  now: () => string;
}

/** The reason a download is stopped with as the app closes: unlike a cancel, it keeps the rows it has. */
export class AppClosing extends Error {}

/** A failed download says which rows it kept, for the next attempt to go on from. */
export type DownloadOutcome = { ok: true; data: CacheEntry } | (Failure<ServiceError> & { kept: ResumePoint | null });

export function stagingTableName(): string {
  return `r_${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;
}

/**
 * Downloads into `resume`'s table from its last row when given, else into a new table named
 * `tableName`. A column with a value its storage type cannot hold is kept wider (see page-casts.ts),
 * and the download starts again from the first row into a new table: so rarely needed (a uint256
 * past 128 bits, a service's text in a number column) that it is not worth checking every page first.
 */
export async function downloadResult(
  options: DownloadOptions,
  tableName: string,
  resume: ResumePoint | null = null,
): Promise<DownloadOutcome> {
  let attempt: DownloadOptions = options;
  let from = resume;
  for (;;) {
    const outcome = await downloadOnce(attempt, tableName, from);
    if (!(outcome instanceof MisfitColumn)) return outcome;
    const storageTypes = attempt.shape.storageTypes.map((type, i) => (i === outcome.column ? widerStorage(type) : type));
    // the early pages were taken or discarded by the first attempt
    attempt = { ...attempt, shape: { ...attempt.shape, storageTypes }, early: undefined };
    from = null;
  }
}

async function downloadOnce(
  options: DownloadOptions,
  tableName: string,
  resume: ResumePoint | null,
): Promise<DownloadOutcome | MisfitColumn> {
  const { db, shape, workDir } = options;
  const table = resume?.tableName ?? tableName;
  // a download that goes on keeps its table's types, which may be wider than a first choice
  const storageTypes = resume === null ? shape.storageTypes : await tableTypes(db, table);
  const columns = columnsOf(shape, storageTypes);
  mkdirSync(workDir, { recursive: true });
  let kept: number | null = null;
  let rowsName = table;
  try {
    const rowCount = await db.withConnection(async (connection) => {
      if (resume === null) await connection.run(`CREATE TABLE ${quoteIdentifier(table)} (${columns.map(columnDefinition).join(', ')})`);
      const { loader, keeper } = pageLoaderFor(options, connection, table, columns, resume);
      try {
        // while pages come, DuckDB loads on one thread (see cache-db.ts); the pages still waiting when
        // the last has come are loaded on every core
        await db.oneThread(() => fetchPages(options, loader, resume?.rows ?? 0));
      } catch (error) {
        // the pages that arrived before the break (or the app closing) are kept, up to the first one missing
        const closing = options.signal.reason instanceof AppClosing;
        if (error instanceof DownloadFailure && (error.error.kind !== 'cancelled' || closing))
          kept = await loader.finish().catch(() => null);
        else await loader.abandon();
        throw error;
      }
      const rows = await loader.finish().catch((error: unknown) => {
        throw asFailure(error);
      });
      rowsName = keeper?.rowsName() ?? table;
      return rows;
    });
    if (rowCount !== shape.totalRowCount) {
      throw new DownloadFailure({
        kind: 'server_error',
        status: null,
        message: `The service sent ${rowCount} rows of a result of ${shape.totalRowCount}.`,
      });
    }
    const entry = entryOfShape(shape, { tableName: rowsName, columns, rowCount, bytes: shape.totalBytes }, options.now());
    if (options.signal.aborted) throw cancelled();
    await swapIn(db, entry);
    return { ok: true, data: entry };
  } catch (error) {
    const failure = error instanceof DownloadFailure ? error.error : options.signal.aborted ? cancelled().error : null;
    if (failure !== null && kept !== null && kept > 0) return { ok: false, error: failure, kept: { tableName: table, rows: kept } };
    await dropTable(db, table).catch(() => undefined);
    if (failure !== null) return { ok: false, error: failure, kept: null };
    if (error instanceof MisfitColumn) return error;
    throw error;
  } finally {
    await options.early?.discard();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The loader of a download's pages: a new one keeps its Parquet pages where they lie (see page-keeper.ts); one that goes on loads them into its table. */
function pageLoaderFor(
  options: DownloadOptions,
  connection: DuckDBConnection,
  table: string,
  columns: Column[],
  resume: ResumePoint | null,
): { loader: PageLoader; keeper: PageKeeper | null } {
  const { db, shape } = options;
  const loading: LoaderOptions = {
    connection,
    tableName: table,
    columns,
    from: resume?.rows ?? 0,
    batchRows: options.loadBatchRows ?? LOAD_BATCH_ROWS,
    onLoaded: () => db.writeBack(),
    durable: {
      ...(options.commitEvery ?? COMMIT_EVERY),
      record: (connection, rows) =>
        recordResumePoint(connection, shape.accountId, shape.executionId, { tableName: table, rows }, options.now()),
    },
  };
  const keeper =
    resume === null && options.formats !== 'csv'
      ? createPageKeeper({
          ...loading,
          folder: pagesFolder(db, table),
          total: shape.totalRowCount,
          checkWith: (work) => db.withConnection(work),
        })
      : null;
  return { loader: keeper ?? createPageLoader(loading), keeper };
}

/** Pages sent wrong are the service's fault, as values; a value that does not fit its column, a reason to widen it. */
function asFailure(error: unknown): unknown {
  if (error instanceof FaultyPages) return new DownloadFailure({ kind: 'server_error', status: null, message: error.message });
  return misfitOf(error) ?? error;
}

/** The DuckDB types of a staging table's columns, in order. */
/** The result's columns as a table holds them, with `storageTypes` as their DuckDB types. */
export function columnsOf(shape: ResultShape, storageTypes: string[]): Column[] {
  return shape.columnNames.map((name, i) => ({ name, type: storageTypes[i] ?? 'VARCHAR', duneType: shape.wireTypes[i] }));
}

/** The DuckDB types of a table's columns, in order. */
export async function tableTypes(db: CacheDb, table: string): Promise<string[]> {
  return db.withConnection(async (connection) => {
    const reader = await connection.runAndReadAll(`SELECT data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index`, [
      table,
    ]);
    return reader.getRows().map((row) => String(row[0]));
  });
}

function cancelled(): DownloadFailure {
  return new DownloadFailure({ kind: 'cancelled', status: null, message: 'The download was cancelled.' });
}

/** Asks for every page from row `from` on, as many at once as the window says, and hands each to the loader. */
async function fetchPages(options: DownloadOptions, loader: PageLoader, from: number): Promise<void> {
  const ranges = new PageRanges(from, options.shape.totalRowCount, options.pageRows);
  const source: PageSource = {
    client: options.client,
    executionId: options.shape.executionId,
    allowPartial: options.shape.isPartial,
    formats: options.formats ?? 'parquet-or-csv',
    workDir: options.workDir,
  };
  const window = createFetchWindow(options.window);
  // the first failure stops the pages still on their way: the download is over
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  let failure: unknown = null;
  const inFlight = new Set<Promise<void>>();
  let arrivedRows = from;
  const fail = (error: unknown) => {
    failure ??= error;
    stop.abort();
    void options.early?.discard();
  };

  while (failure === null && (ranges.remaining > 0 || inFlight.size > 0)) {
    if (ranges.remaining === 0 || inFlight.size >= window.size()) {
      await Promise.race(inFlight);
      continue;
    }
    await loader.drained(WAITING_PAGES).catch((error: unknown) => fail(asFailure(error)));
    const range = ranges.take();
    if (failure !== null || range === undefined) break;
    const fetching = (options.early?.take(range, options.shape.totalRowCount) ?? fetchPage(source, range, signal))
      .then((page) => {
        const held = ranges.arrived(range, page.nextOffset);
        if (held instanceof Error) throw new DownloadFailure({ kind: 'server_error', status: null, message: held.message });
        window.arrived(performance.now());
        loader.add(held, page.file, page.format);
        arrivedRows += held.end - held.offset;
        options.onRows(arrivedRows);
      })
      .catch(fail)
      .finally(() => inFlight.delete(fetching));
    inFlight.add(fetching);
  }
  await Promise.all(inFlight);
  if (failure !== null) throw options.signal.aborted ? cancelled() : failure;
}
