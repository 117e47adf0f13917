import { randomBytes } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier as q } from '../../common/sql-quote.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { stagingTableName } from '../cache/download.ts';
import { swapIn, type CacheEntry } from '../cache/manifest.ts';
import { selectAll } from '../cache/pages-view.ts';
import { LOCAL_RESULT_PREFIX } from './local-tables.ts';
import { csvSelect, type AttachedCsv } from './sandbox.ts';
import { located } from './statement-check.ts';

// A local statement, once the sandbox has judged it, runs where the cached results are: in the
// cache's DuckDB, on a connection of its own that sees each result under its names (temporary
// views, gone with the statement). Its answer is written once, as a cached result of its own, under
// an execution id of its own: the grid, filters, charts, profiles, pivots, copies and exports read
// it as they read a downloaded result, and it stays (with the tab that shows it) across restarts.

const ESTIMATED_CELL_BYTES = 8;

export interface NamedTable {
  names: string[];
  /** The cached result's table in the cache's file. */
  tableName: string;
}

export function localExecutionId(): string {
  return `${LOCAL_RESULT_PREFIX}${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Runs the checked SELECT `sql` over `tables` and `csvFiles`, and caches its answer as the result
 * `ids`; `signal` interrupts it (it then throws what DuckDB says, and nothing is cached).
 */
export async function runIntoCache(
  db: CacheDb,
  ids: { accountId: string; executionId: string },
  sources: { tables: NamedTable[]; csvFiles: AttachedCsv[] },
  sql: string,
  { now, signal }: { now: Date; signal: AbortSignal },
): Promise<CacheEntry> {
  const tableName = stagingTableName();
  const { columns, rowCount } = await db.withConnection(async (connection) => {
    const views = await nameSources(connection, sources);
    const interrupt = () => connection.interrupt();
    signal.addEventListener('abort', interrupt, { once: true });
    let rowCount: number;
    try {
      signal.throwIfAborted();
      // on a line of its own, so that DuckDB's positions are the statement's, a line further down
      const create = await connection.prepare(`CREATE TABLE main.${q(tableName)} AS\n${sql.replace(/;\s*$/, '')}`);
      // a CREATE TABLE … AS answers the rows it wrote
      rowCount = Number((await located(sql, () => create.runAndReadAll(), 1)).getRows()[0]?.[0] ?? 0);
    } catch (error) {
      await connection.run(`DROP TABLE IF EXISTS main.${q(tableName)}`);
      throw error;
    } finally {
      signal.removeEventListener('abort', interrupt);
      for (const view of views) await connection.run(`DROP VIEW IF EXISTS temp.main.${q(view)}`);
    }
    return { columns: await columnsOf(connection, tableName), rowCount };
  });
  const at = now.toISOString();
  const entry: CacheEntry = {
    ...ids,
    tableName,
    // DuckDB's type names are what the embedded service names its columns by, and the grid shows
    columns: columns.map((c) => ({ name: c.name, type: c.type, duneType: c.type })),
    wireTypes: columns.map((c) => c.type),
    rowCount,
    // for the cache's budget only: DuckDB tells no table's size on disk, and a download's comes from the service
    bytes: rowCount * columns.length * ESTIMATED_CELL_BYTES,
    isPartial: false,
    expiresAt: null,
    fetchedAt: at,
    lastUsed: at,
  };
  await swapIn(db, entry);
  return entry;
}

/** Temporary views of the sources under the names the statement uses; answers their names. */
async function nameSources(connection: DuckDBConnection, { tables, csvFiles }: { tables: NamedTable[]; csvFiles: AttachedCsv[] }) {
  const views: string[] = [];
  for (const table of tables) {
    for (const name of table.names) {
      await connection.run(
        `CREATE OR REPLACE TEMP VIEW ${q(name)} AS SELECT ${selectAll(table.tableName)} FROM main.${q(table.tableName)}`,
      );
      views.push(name);
    }
  }
  for (const csv of csvFiles) {
    await connection.run(`CREATE OR REPLACE TEMP VIEW ${q(csv.name)} AS ${csvSelect(csv)}`);
    views.push(csv.name);
  }
  return views;
}

async function columnsOf(connection: DuckDBConnection, tableName: string): Promise<{ name: string; type: string }[]> {
  const columns = await connection.runAndReadAll(
    `SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ? ORDER BY column_index`,
    [tableName],
  );
  return columns.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
}
