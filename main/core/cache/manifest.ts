import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import type { Column } from '../../filter-language/index.ts';
import type { CacheDb } from './cache-db.ts';
import { dropResult, removePages, removePagesAfterReads, tableOf, tableViewSql } from './pages-view.ts';

// The manifest: one row per complete cached result. A row exists only once its table holds the
// whole result (it is written in the same transaction that makes the table the entry's), so a
// table without a row is the leftover of an interrupted download and is dropped at open.

export interface CacheEntry {
  accountId: string;
  executionId: string;
  tableName: string;
  /** Names and DuckDB types as stored: what filters and sorts are compiled against. */
  columns: Column[];
  /** The column types as the service named them, for the grid's headers. */
  wireTypes: string[];
  rowCount: number;
  bytes: number;
  isPartial: boolean;
  expiresAt: string | null;
  fetchedAt: string;
  lastUsed: string;
}

const SELECT_ENTRY = `SELECT account_id, execution_id, table_name, column_names, wire_types, storage_types, row_count, bytes,
  is_partial, strftime(expires_at, '%Y-%m-%dT%H:%M:%S.%gZ'), strftime(fetched_at, '%Y-%m-%dT%H:%M:%S.%gZ'),
  strftime(last_used, '%Y-%m-%dT%H:%M:%S.%gZ') FROM cache_entries`;

function toEntry(row: unknown[]): CacheEntry {
  const names = listOf(row[3]);
  const storage = listOf(row[5]);
  const wireTypes = listOf(row[4]);
  return {
    accountId: String(row[0]),
    executionId: String(row[1]),
    tableName: String(row[2]),
    columns: names.map((name, i) => ({ name, type: storage[i] ?? 'VARCHAR', duneType: wireTypes[i] })),
    wireTypes,
    rowCount: Number(row[6]),
    bytes: Number(row[7]),
    isPartial: row[8] === true,
    expiresAt: row[9] === null ? null : String(row[9]),
    fetchedAt: String(row[10]),
    lastUsed: String(row[11]),
  };
}

function listOf(value: unknown): string[] {
  const items = (value as { items?: unknown[] } | null)?.items ?? [];
  return items.map(String);
}

function listSql(values: string[]): string {
  return `[${values.map(quoteLiteral).join(', ')}]::VARCHAR[]`;
}

export async function readEntry(db: CacheDb, accountId: string, executionId: string): Promise<CacheEntry | null> {
  return db.exclusive(async (connection) => {
    const reader = await connection.runAndReadAll(`${SELECT_ENTRY} WHERE account_id = ? AND execution_id = ?`, [accountId, executionId]);
    const row = reader.getRows()[0];
    return row ? toEntry(row) : null;
  });
}

export async function listEntries(db: CacheDb): Promise<CacheEntry[]> {
  return db.exclusive(async (connection) => (await connection.runAndReadAll(`${SELECT_ENTRY} ORDER BY last_used`)).getRows().map(toEntry));
}

export async function touchEntry(db: CacheDb, entry: CacheEntry, now: string): Promise<void> {
  await db.exclusive((connection) =>
    connection.run('UPDATE cache_entries SET last_used = CAST(? AS TIMESTAMP) WHERE account_id = ? AND execution_id = ?', [
      now,
      entry.accountId,
      entry.executionId,
    ]),
  );
}

/**
 * Makes a loaded table the entry for its result, in one transaction: the manifest row is
 * replaced and the previous entry's table dropped together, or nothing changes.
 */
export async function swapIn(db: CacheDb, entry: CacheEntry): Promise<void> {
  const dropped: string[] = [];
  await db.exclusive(async (connection) => {
    await inTransaction(connection, async () => {
      const previous = await connection.runAndReadAll('SELECT table_name FROM cache_entries WHERE account_id = ? AND execution_id = ?', [
        entry.accountId,
        entry.executionId,
      ]);
      await connection.run('DELETE FROM cache_entries WHERE account_id = ? AND execution_id = ?', [entry.accountId, entry.executionId]);
      await connection.run(
        `INSERT INTO cache_entries VALUES (?, ?, ?, ${listSql(entry.columns.map((c) => c.name))}, ${listSql(entry.wireTypes)},
          ${listSql(entry.columns.map((c) => c.type))}, ?, ?, ?, CAST(? AS TIMESTAMP), CAST(? AS TIMESTAMP), CAST(? AS TIMESTAMP))`,
        [
          entry.accountId,
          entry.executionId,
          entry.tableName,
          entry.rowCount,
          entry.bytes,
          entry.isPartial,
          entry.expiresAt,
          entry.fetchedAt,
          entry.lastUsed,
        ],
      );
      for (const table of previous.getRows().map(([name]) => String(name))) {
        if (table === entry.tableName) continue;
        await dropResult(connection, table);
        dropped.push(table);
      }
      // the download recorded its rows as it went, for a crash to leave them to the next (see resumable-downloads.ts)
      await connection.run('DELETE FROM kept_downloads WHERE table_name = ?', [tableOf(entry.tableName)]);
    });
  });
  for (const table of dropped) removePagesAfterReads(db, table);
}

/** Removes an entry and its rows; an entry read from its pages may have been folded into its table since it was read. */
export async function removeEntry(db: CacheDb, entry: CacheEntry): Promise<void> {
  const names = [entry.tableName, tableOf(entry.tableName)];
  let removed: string[] = [];
  await db.exclusive((connection) =>
    inTransaction(connection, async () => {
      const found = await connection.runAndReadAll(
        'SELECT table_name FROM cache_entries WHERE account_id = ? AND execution_id = ? AND table_name IN (?, ?)',
        [entry.accountId, entry.executionId, ...names],
      );
      removed = found.getRows().map(([name]) => String(name));
      await connection.run('DELETE FROM cache_entries WHERE account_id = ? AND execution_id = ? AND table_name IN (?, ?)', [
        entry.accountId,
        entry.executionId,
        ...names,
      ]);
      // a view's fold under way drops its own table once it finds the entry gone
      for (const name of new Set([...removed, entry.tableName])) await dropResult(connection, name);
    }),
  );
  removePagesAfterReads(db, entry.tableName);
}

/**
 * Makes `table`, which holds the rows of the entry's view, the entry's in the view's place (the view
 * then reads the table, until the next open drops it); answers false, and drops the table, when the
 * entry went or changed meanwhile.
 */
export async function foldedIn(db: CacheDb, entry: CacheEntry, table: string): Promise<boolean> {
  let swapped = false;
  await db.exclusive((connection) =>
    inTransaction(connection, async () => {
      const updated = await connection.run(
        'UPDATE cache_entries SET table_name = ? WHERE account_id = ? AND execution_id = ? AND table_name = ?',
        [table, entry.accountId, entry.executionId, entry.tableName],
      );
      swapped = updated.rowsChanged === 1;
      // a reader given the entry before may still name the view: it now reads the table
      if (swapped) await connection.run(tableViewSql(entry.tableName, table));
      else await dropResult(connection, table);
    }),
  );
  if (swapped) removePagesAfterReads(db, entry.tableName);
  return swapped;
}

/** Drops a table no entry names (a download's staging table), with the record of the rows it holds and the pages kept for it. */
export async function dropTable(db: CacheDb, tableName: string): Promise<void> {
  await db.exclusive((connection) =>
    inTransaction(connection, async () => {
      await connection.run('DELETE FROM kept_downloads WHERE table_name = ?', [tableName]);
      // with the view made once the last page came, if the download failed after
      await dropResult(connection, tableName);
    }),
  );
  removePages(db, tableName);
}

/**
 * Drops every result table and view that neither the manifest nor a kept download names (a
 * download's staging table, a view a fold replaced), and the folders of pages that neither names.
 */
export async function dropOrphans(db: CacheDb): Promise<void> {
  const named = await db.exclusive(async (connection) => {
    const orphans = await connection.runAndReadAll(
      `SELECT 'TABLE', table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'
        AND table_name NOT IN ('cache_entries', 'kept_downloads') AND table_name NOT IN (SELECT table_name FROM cache_entries)
        AND table_name NOT IN (SELECT table_name FROM kept_downloads)
      UNION ALL SELECT 'VIEW', view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main'
        AND NOT internal AND view_name NOT IN (SELECT table_name FROM cache_entries)`,
    );
    for (const [kind, name] of orphans.getRows()) await connection.run(`DROP ${String(kind)} IF EXISTS ${quoteIdentifier(String(name))}`);
    const kept = await connection.runAndReadAll('SELECT table_name FROM cache_entries UNION ALL SELECT table_name FROM kept_downloads');
    return new Set(kept.getRows().map(([name]) => tableOf(String(name))));
  });
  const folders = join(db.dir, 'pages');
  for (const folder of existsSync(folders) ? readdirSync(folders) : [])
    if (!named.has(folder)) rmSync(join(folders, folder), { recursive: true, force: true });
}

async function inTransaction(connection: DuckDBConnection, work: () => Promise<void>): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    await work();
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}
