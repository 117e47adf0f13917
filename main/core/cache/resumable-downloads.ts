import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { CacheDb } from './cache-db.ts';
import { loadKeptPages } from './page-keeper.ts';
import { removePages } from './pages-view.ts';

// The rows of downloads broken off (by the network, the service, the app closing or its being
// killed), kept in the cache file (table kept_downloads) with where they end, so that the next
// start of the same result, in this session or a later one, goes on from there. A download records
// where its rows end in each of its commits (see download.ts), so that record holds after any kind
// of end. They are not counted in the cache's budget, so few are kept, and not for long.

/** The staging table of a download that was broken off, and the rows it holds from the start of the result. */
export interface ResumePoint {
  tableName: string;
  rows: number;
}

/** Resumable downloads at most: the oldest beyond this go as a new one is kept. */
const MOST_KEPT = 4;
/** A download not taken up within this long is dropped at the next start of the app. */
const KEPT_MILLIS = 7 * 24 * 60 * 60 * 1000;

type Resumable = ResumePoint & { accountId: string };

export class ResumableDownloads {
  readonly #db: CacheDb;
  readonly #kept: Map<string, Resumable>;

  private constructor(db: CacheDb, kept: Map<string, Resumable>) {
    this.#db = db;
    this.#kept = kept;
  }

  /** The downloads kept in the cache file, once those older than a week are dropped with their tables. */
  static async open(db: CacheDb, now: Date): Promise<ResumableDownloads> {
    const rows = await db.withConnection(async (connection) =>
      (
        await connection.runAndReadAll(
          "SELECT account_id, execution_id, table_name, row_count, kept_at, strftime(kept_at, '%Y-%m-%d %H:%M:%S.%f') AS kept_at_text FROM kept_downloads ORDER BY kept_at",
        )
      ).getRowObjectsJS(),
    );
    const kept = new ResumableDownloads(db, new Map());
    for (const row of rows) {
      const tableName = String(row.table_name);
      if ((row.kept_at as Date).getTime() < now.getTime() - KEPT_MILLIS) {
        await kept.#forget(tableName, true);
        continue;
      }
      const accountId = String(row.account_id);
      const executionId = String(row.execution_id);
      // a new download killed while under way left its rows as the pages it kept
      const rows = await loadKeptPages(db, tableName, Number(row.row_count));
      if (rows === 0) await kept.#forget(tableName, true);
      else {
        if (rows !== Number(row.row_count))
          await db.exclusive((connection) =>
            recordResumePoint(connection, accountId, executionId, { tableName, rows }, String(row.kept_at_text)),
          );
        kept.#kept.set(keyOf(accountId, executionId), { accountId, tableName, rows });
      }
    }
    // downloads killed while under way were never kept through `keep`, which bounds their number
    await kept.#dropOldest();
    return kept;
  }

  /** The rows kept of a result's download, for the next to go on from. */
  get(accountId: string, executionId: string): ResumePoint | null {
    return this.#kept.get(keyOf(accountId, executionId)) ?? null;
  }

  /** Keeps a download's rows, in place of any kept for the same result; the oldest beyond the most kept go. */
  async keep(accountId: string, executionId: string, rows: ResumePoint, now: Date): Promise<void> {
    await this.#db.exclusive((connection) => recordResumePoint(connection, accountId, executionId, rows, now.toISOString()));
    const key = keyOf(accountId, executionId);
    this.#kept.delete(key);
    this.#kept.set(key, { ...rows, accountId });
    await this.#dropOldest();
  }

  async #dropOldest(): Promise<void> {
    for (const [other, { tableName }] of [...this.#kept].slice(0, Math.max(0, this.#kept.size - MOST_KEPT))) {
      this.#kept.delete(other);
      await this.#forget(tableName, true);
    }
  }

  /** A download that went on from kept rows ended: its table is the result's now, or dropped. */
  async settled(accountId: string, executionId: string, rows: ResumePoint): Promise<void> {
    const key = keyOf(accountId, executionId);
    if (this.#kept.get(key)?.tableName === rows.tableName) this.#kept.delete(key);
    await this.#forget(rows.tableName, false);
  }

  /** Drops the kept downloads of the accounts `isDropped` names, with their tables. */
  async drop(isDropped: (accountId: string) => boolean): Promise<void> {
    for (const [key, kept] of this.#kept) {
      if (!isDropped(kept.accountId)) continue;
      this.#kept.delete(key);
      await this.#forget(kept.tableName, true);
    }
  }

  async #forget(tableName: string, dropTable: boolean): Promise<void> {
    await this.#db.exclusive(async (connection) => {
      await connection.run('DELETE FROM kept_downloads WHERE table_name = ?', [tableName]);
      if (dropTable) await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(tableName)}`);
    });
    if (dropTable) removePages(this.#db, tableName);
  }
}

/** Records, in the connection's transaction, the rows a result's download holds, in place of any recorded before for the result. */
export async function recordResumePoint(
  connection: DuckDBConnection,
  accountId: string,
  executionId: string,
  rows: ResumePoint,
  at: string,
): Promise<void> {
  await connection.run('DELETE FROM kept_downloads WHERE account_id = ? AND execution_id = ?', [accountId, executionId]);
  await connection.run('INSERT INTO kept_downloads VALUES (?, ?, ?, ?, CAST(? AS TIMESTAMP))', [
    accountId,
    executionId,
    rows.tableName,
    rows.rows,
    at,
  ]);
}

function keyOf(accountId: string, executionId: string): string {
  return `${accountId}\n${executionId}`;
}
