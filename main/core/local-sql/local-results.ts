import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { stagingTableName } from '../cache/download.ts';
import { swapIn, type CacheEntry } from '../cache/manifest.ts';
import { LOCAL_RESULT_PREFIX } from './local-tables.ts';

// A local statement's answer becomes a cached result like any other, under an execution id of its
// own: the grid, filters, charts, profiles, pivots, copies and exports read it from the cache as
// they read a downloaded result, and it stays there (with the tab that shows it) across restarts.

export function localExecutionId(): string {
  return `${LOCAL_RESULT_PREFIX}${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** Loads the answer the sandbox wrote to `outputFile` into the cache as the result `executionId`. */
export async function storeLocalResult(
  db: CacheDb,
  ids: { accountId: string; executionId: string },
  outputFile: string,
  now: Date,
): Promise<CacheEntry> {
  const tableName = stagingTableName();
  const catalog = q(`output ${tableName}`);
  const types = await db.withConnection(async (connection) => {
    await connection.run(`ATTACH ${quoteLiteral(outputFile)} AS ${catalog} (READ_ONLY)`);
    try {
      await connection.run(`CREATE TABLE main.${q(tableName)} AS SELECT * FROM ${catalog}.main.data`);
    } finally {
      await connection.run(`DETACH ${catalog}`);
    }
    const reader = await connection.runAndReadAll(
      `SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND table_name = ? ORDER BY column_index`,
      [tableName],
    );
    return reader.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
  });
  const rowCount = await db.withConnection(async (connection) =>
    Number((await connection.runAndReadAll(`SELECT count(*) FROM ${q(tableName)}`)).getRows()[0]![0]),
  );
  const at = now.toISOString();
  const entry: CacheEntry = {
    ...ids,
    tableName,
    // DuckDB's type names are what the embedded service names its columns by, and the grid shows
    columns: types.map((c) => ({ name: c.name, type: c.type, duneType: c.type })),
    wireTypes: types.map((c) => c.type),
    rowCount,
    bytes: statSync(outputFile).size,
    isPartial: false,
    expiresAt: null,
    fetchedAt: at,
    lastUsed: at,
  };
  await swapIn(db, entry);
  return entry;
}
