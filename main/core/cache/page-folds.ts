import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { CacheDb } from './cache-db.ts';
import { dropTable, foldedIn, listEntries, removeEntry, type CacheEntry } from './manifest.ts';
import { isPagesView, tableOf } from './pages-view.ts';
import { columnDefinition } from './storage-types.ts';

// The views of downloads' pages (see pages-view.ts) folded into tables in the background, one at a
// time and on one of DuckDB's threads, so that a window reading the result meanwhile keeps a core:
// a table reads several times faster than pages, and takes less of the disk. A fold takes the
// view's place in the manifest in a transaction of its own; one cut short (the app closing, a
// kill) is started again at the next open. A view whose rows cannot be read (its pages gone) is
// dropped with its entry, so that the result is read from the service again.

export class PageFolds {
  readonly #db: CacheDb;
  /** Told that an entry went (its view could not be folded). */
  readonly #onRemoved: (entry: CacheEntry) => void;
  #queue: Promise<void> = Promise.resolve();
  #closing = false;
  /** The connection of the fold under way, to interrupt at a close. */
  #folding: DuckDBConnection | null = null;

  constructor(db: CacheDb, onRemoved: (entry: CacheEntry) => void) {
    this.#db = db;
    this.#onRemoved = onRemoved;
  }

  /** Folds the entry's view after those already asked for; nothing for an entry that is a table. */
  fold(entry: CacheEntry): void {
    if (!isPagesView(entry.tableName)) return;
    this.#queue = this.#queue.then(() => this.#fold(entry));
  }

  /** Folds every entry still read from its pages (after a start, those a close or a kill cut short). */
  async foldLeftovers(): Promise<void> {
    for (const entry of await listEntries(this.#db)) this.fold(entry);
  }

  /** Resolves once the folds asked for so far have ended. */
  settled(): Promise<void> {
    return this.#queue;
  }

  /** Stops folding: the fold under way is interrupted (the next open does it again); resolves once it has ended. */
  close(): Promise<void> {
    this.#closing = true;
    this.#folding?.interrupt();
    return this.#queue;
  }

  async #fold(entry: CacheEntry): Promise<void> {
    if (this.#closing) return;
    const table = tableOf(entry.tableName);
    try {
      await this.#db.oneThread(() =>
        this.#db.withConnection(async (connection) => {
          this.#folding = connection;
          await connection.run('BEGIN TRANSACTION');
          try {
            await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(table)}`);
            await connection.run(`CREATE TABLE ${quoteIdentifier(table)} (${entry.columns.map(columnDefinition).join(', ')})`);
            const copied = await connection.run(
              `INSERT INTO ${quoteIdentifier(table)} SELECT * EXCLUDE (rowid) FROM ${quoteIdentifier(entry.tableName)}`,
            );
            if (copied.rowsChanged !== entry.rowCount) throw new Error(`The pages held ${copied.rowsChanged} rows of ${entry.rowCount}.`);
            if (this.#closing) throw new Error('The cache is closing.');
            await connection.run('COMMIT');
          } catch (error) {
            await connection.run('ROLLBACK').catch(() => undefined);
            throw error;
          } finally {
            this.#folding = null;
          }
        }),
      );
      this.#db.writeBack();
      await foldedIn(this.#db, entry, table);
    } catch {
      // cut short by the file closing: the next open folds it again
      if (this.#closing) return;
      await removeEntry(this.#db, entry).catch(() => undefined);
      await dropTable(this.#db, table).catch(() => undefined);
      this.#onRemoved(entry);
    }
  }
}
