import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteName, type Column } from '../../filter-language/index.ts';
import type { ServiceClient, ServiceError } from '../service-client/index.ts';
import { sqlString, type CacheDb } from './cache-db.ts';
import { swapIn, type CacheEntry } from './manifest.ts';

// A whole result into the cache, from its CSV pages: several pages in flight at their offsets,
// each written to a file and loaded by DuckDB's CSV reader in result order into a staging table,
// which becomes the entry in one transaction at the end. Until then the previous entry (if any)
// stays as it was, whatever happens to this download.

/** Pages fetched and written to disk, waiting for their turn to be loaded: a bound on the disk they take. */
const WAITING_PAGES = 8;

export interface ResultShape {
  accountId: string;
  executionId: string;
  columnNames: string[];
  wireTypes: string[];
  /** The DuckDB types the columns are kept as. */
  storageTypes: string[];
  totalRowCount: number;
  totalBytes: number;
  isPartial: boolean;
  expiresAt: string | null;
}

export interface DownloadOptions {
  db: CacheDb;
  client: ServiceClient;
  shape: ResultShape;
  /** A folder for the page files; removed at the end. */
  workDir: string;
  pageRows: number;
  concurrency: number;
  signal: AbortSignal;
  onRows: (rowsLoaded: number) => void;
  now: () => string;
}

export type DownloadOutcome = { ok: true; entry: CacheEntry } | { ok: false; error: ServiceError };

class DownloadFailure extends Error {
  readonly error: ServiceError;
  constructor(error: ServiceError) {
    super(error.message);
    this.error = error;
  }
}

export function stagingTableName(): string {
  return `r_${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;
}

export async function downloadResult(options: DownloadOptions, tableName: string): Promise<DownloadOutcome> {
  const { db, shape, workDir } = options;
  const columns: Column[] = shape.columnNames.map((name, i) => ({ name, type: shape.storageTypes[i] ?? 'VARCHAR' }));
  mkdirSync(workDir, { recursive: true });
  try {
    const rowCount = await db.withConnection(async (connection) => {
      await connection.run(`CREATE TABLE ${quoteName(tableName)} (${columns.map((c) => `${quoteName(c.name)} ${c.type}`).join(', ')})`);
      return loadPages(options, connection, tableName, columns);
    });
    if (rowCount !== shape.totalRowCount) {
      throw new DownloadFailure({ kind: 'server_error', status: null, message: `The service sent ${rowCount} rows of a result of ${shape.totalRowCount}.` });
    }
    const now = options.now();
    const entry: CacheEntry = {
      accountId: shape.accountId,
      executionId: shape.executionId,
      tableName,
      columns,
      wireTypes: shape.wireTypes,
      rowCount,
      bytes: shape.totalBytes,
      isPartial: shape.isPartial,
      expiresAt: shape.expiresAt,
      fetchedAt: now,
      lastUsed: now,
    };
    if (options.signal.aborted) throw cancelled();
    await swapIn(db, entry);
    return { ok: true, entry };
  } catch (error) {
    await db.exclusive((connection) => connection.run(`DROP TABLE IF EXISTS ${quoteName(tableName)}`)).catch(() => undefined);
    if (error instanceof DownloadFailure) return { ok: false, error: error.error };
    if (options.signal.aborted) return { ok: false, error: cancelled().error };
    throw error;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function cancelled(): DownloadFailure {
  return new DownloadFailure({ kind: 'cancelled', status: null, message: 'The download was cancelled.' });
}

/** Fetches every page (the first alone, to learn the service's page size) and loads them in order. */
async function loadPages(options: DownloadOptions, connection: DuckDBConnection, tableName: string, columns: Column[]): Promise<number> {
  const { shape, signal } = options;
  const first = await fetchPage(options, 0, options.pageRows);
  // The service may lower the limit: its next offset says how many rows a page holds.
  const pageSize = first.nextOffset ?? shape.totalRowCount;
  if (first.nextOffset !== null && first.nextOffset <= 0) {
    throw new DownloadFailure({ kind: 'server_error', status: null, message: `The service gave ${first.nextOffset} as the offset after the first page.` });
  }
  const offsets: number[] = [];
  for (let offset = pageSize; first.nextOffset !== null && offset < shape.totalRowCount; offset += pageSize) offsets.push(offset);

  const files = new Map<number, string>();
  let loaded = await loadFile(connection, tableName, columns, first.file);
  options.onRows(loaded);
  let nextToLoad = 0;
  let loading: Promise<void> = Promise.resolve();
  const loadReady = () => {
    loading = loading.then(async () => {
      while (files.has(nextToLoad)) {
        if (signal.aborted) throw cancelled();
        const file = files.get(nextToLoad)!;
        files.delete(nextToLoad);
        nextToLoad += 1;
        loaded += await loadFile(connection, tableName, columns, file);
        options.onRows(loaded);
      }
    });
    return loading;
  };

  let nextIndex = 0;
  let failed = false;
  const worker = async () => {
    while (nextIndex < offsets.length && !failed) {
      const index = nextIndex++;
      const page = await fetchPage(options, offsets[index]!, pageSize, index + 1);
      files.set(index, page.file);
      // Loading goes on while the next page is fetched; fetching waits only when many pages wait.
      const loadingNow = loadReady();
      if (files.size >= WAITING_PAGES) await loadingNow;
      else loadingNow.catch(() => (failed = true)); // thrown again by the last loadReady below
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    await loadReady();
  } catch (error) {
    // the other workers stop at their next page instead of fetching the rest for nothing
    failed = true;
    throw error;
  }
  return loaded;
}

async function fetchPage(options: DownloadOptions, offset: number, limit: number, index = 0): Promise<{ file: string; nextOffset: number | null }> {
  const pages = options.client.results.csvPages({
    executionId: options.shape.executionId,
    offset,
    limit,
    allowPartialResults: options.shape.isPartial,
    signal: options.signal,
  });
  const read = await pages.next();
  await pages.return();
  if (read.done) throw new DownloadFailure({ kind: 'server_error', status: null, message: 'The service sent no CSV page.' });
  if (!read.value.ok) throw new DownloadFailure(read.value.error);
  const page = read.value.value;
  const file = join(options.workDir, `${index}.csv`);
  writeFileSync(file, `${page.header}\n${page.rows}`);
  return { file, nextOffset: page.nextOffset };
}

async function loadFile(connection: DuckDBConnection, tableName: string, columns: Column[], file: string): Promise<number> {
  const raw = columns.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const casts = columns.map((c, i) => `CAST(c${i} AS ${c.type})`).join(', ');
  const result = await connection.run(
    `INSERT INTO ${quoteName(tableName)} SELECT ${casts} FROM read_csv(${sqlString(file)}, header = true, auto_detect = false,
      delim = ',', quote = '"', escape = '"', columns = {${raw}})`,
  );
  rmSync(file, { force: true });
  return result.rowsChanged;
}
