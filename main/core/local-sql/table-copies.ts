import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import type { CacheDb } from '../cache/cache-db.ts';

// Local SQL runs in a DuckDB of its own (see sandbox.ts), and one process cannot open the cache's
// file in a second DuckDB while the first writes to it. Each cached result it reads is copied once
// into a file of its own, which the sandbox attaches read-only: a cached table never changes (a new
// download makes a new table), so a copy named after its table stays true until the table goes.

const SUFFIX = '.duckdb';

export class TableCopies {
  readonly #db: CacheDb;
  readonly #dir: string;
  readonly #making = new Map<string, Promise<string>>();

  constructor(db: CacheDb, dir: string) {
    this.#db = db;
    this.#dir = dir;
  }

  /** The copy's file of the cache's table `tableName`, made first when there is none. */
  path(tableName: string): Promise<string> {
    const file = join(this.#dir, `${tableName}${SUFFIX}`);
    if (existsSync(file)) return Promise.resolve(file);
    const making = this.#making.get(tableName) ?? this.#copy(tableName, file).finally(() => this.#making.delete(tableName));
    this.#making.set(tableName, making);
    return making;
  }

  /** Removes the copies of tables no longer cached. */
  prune(live: ReadonlySet<string>): void {
    if (!existsSync(this.#dir)) return;
    for (const name of readdirSync(this.#dir)) {
      const table = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : null;
      if (table !== null && !live.has(table) && !this.#making.has(table)) rmSync(join(this.#dir, name), { force: true });
    }
  }

  async #copy(tableName: string, file: string): Promise<string> {
    mkdirSync(this.#dir, { recursive: true });
    // written under another name and renamed when whole, so that a copy cut short is never read
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    const catalog = q(`copy ${tableName}`);
    await this.#db.withConnection(async (connection) => {
      await connection.run(`ATTACH ${quoteLiteral(partial)} AS ${catalog}`);
      try {
        await connection.run(`CREATE TABLE ${catalog}.main.data AS SELECT * FROM main.${q(tableName)}`);
      } finally {
        await connection.run(`DETACH ${catalog}`);
      }
    });
    renameSync(partial, file);
    return file;
  }
}
