import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkpoint, quoteIdentifier as q, type Database } from '../storage/duckdb.ts';

// Results attached at once, beyond those in use: the ones paged through lately stay ready.
const KEPT_ATTACHED = 16;
// Results hold VARIANT columns, which need the storage format of DuckDB 1.5.
const STORAGE_VERSION = 'v1.5.0';
const SUFFIX = '.duckdb';

/** A result's table as SQL names it, and the name of the database it is in. */
export interface ResultTable {
  sql: string;
  catalog: string;
}

interface Attached {
  /** The database's name, unquoted. */
  alias: string;
  users: number;
  dropped: boolean;
}

/**
 * Each stored result is a DuckDB file of its own (`<id>.duckdb`, one table), attached to the results
 * DuckDB while it is written or read. With every result a table of one file, DuckDB held that
 * catalog in memory whole: memory grew with each result kept (about 55 KB a small one, and some
 * 200 KB more until a checkpoint), and a few thousand small results filled its memory limit.
 */
export class ResultFiles {
  readonly db: Database;
  readonly #dir: string;
  /** In the order last used, least recent first. */
  #attached = new Map<string, Attached>();
  #attaching = new Map<string, Promise<Attached>>();

  constructor(db: Database, dir: string) {
    this.db = db;
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  path(executionId: string): string {
    return join(this.#dir, `${executionId}${SUFFIX}`);
  }

  /** The executions with a result file, complete or not. */
  ids(): string[] {
    return readdirSync(this.#dir)
      .filter((name) => name.endsWith(SUFFIX))
      .map((name) => name.slice(0, -SUFFIX.length));
  }

  /** Runs `work` with the result's table attached; `create` starts a new file first, in place of any the execution had. */
  async use<T>(executionId: string, work: (table: ResultTable) => Promise<T>, create = false): Promise<T> {
    const table = await this.hold(executionId, create);
    try {
      return await work(table);
    } finally {
      await this.release(executionId);
    }
  }

  /** Attaches the result (counting one more user) and answers its table; `release` when done. */
  async hold(executionId: string, create = false): Promise<ResultTable> {
    if (create) await this.#forget(executionId);
    let entry = this.#attached.get(executionId);
    if (!entry) {
      // callers asking at once share one ATTACH
      let pending = this.#attaching.get(executionId);
      if (!pending) {
        pending = this.#attach(executionId, create);
        this.#attaching.set(executionId, pending);
      }
      try {
        entry = await pending;
      } finally {
        if (this.#attaching.get(executionId) === pending) this.#attaching.delete(executionId);
      }
    }
    entry.users++;
    this.#attached.delete(executionId);
    this.#attached.set(executionId, entry);
    return { sql: `${q(entry.alias)}.main.r`, catalog: entry.alias };
  }

  async release(executionId: string): Promise<void> {
    const entry = this.#attached.get(executionId);
    if (!entry) return;
    entry.users--;
    if (entry.users === 0 && entry.dropped) return this.#forget(executionId);
    for (const [id, other] of this.#attached) {
      if (this.#attached.size <= KEPT_ATTACHED) break;
      if (other.users === 0) await this.#detach(id, other);
    }
  }

  /** Deletes the result: now, or when its last reader is done. */
  async drop(executionId: string): Promise<void> {
    const entry = this.#attached.get(executionId);
    if (entry && entry.users > 0) entry.dropped = true;
    else await this.#forget(executionId);
  }

  /** Writes what is pending into the file, so that memory holds nothing of it that a crash could lose. */
  async checkpoint(table: ResultTable): Promise<void> {
    const connection = await this.db.connect();
    try {
      await checkpoint(connection, q(table.catalog));
    } finally {
      this.db.release(connection);
    }
  }

  async #attach(executionId: string, create: boolean): Promise<Attached> {
    const path = this.path(executionId);
    if (create) this.#delete(executionId);
    // read-write, ATTACH would make an empty file where none is
    else if (!existsSync(path)) throw new Error(`the result of execution ${executionId} is not stored`);
    const alias = `result_${executionId}`;
    const options = create ? ` (STORAGE_VERSION '${STORAGE_VERSION}')` : '';
    await this.db.run(`ATTACH '${path.replaceAll("'", "''")}' AS ${q(alias)}${options}`);
    return { alias, users: 0, dropped: false };
  }

  async #forget(executionId: string): Promise<void> {
    const entry = this.#attached.get(executionId);
    if (entry) await this.#detach(executionId, entry);
    this.#delete(executionId);
  }

  async #detach(executionId: string, entry: Attached): Promise<void> {
    this.#attached.delete(executionId);
    await this.db.run(`DETACH ${q(entry.alias)}`);
  }

  #delete(executionId: string): void {
    const path = this.path(executionId);
    for (const file of [path, `${path}.wal`]) rmSync(file, { force: true });
  }
}
