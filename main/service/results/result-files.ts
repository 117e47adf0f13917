import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { quoteIdentifier as q, quoteLiteral as literal } from '../../common/sql-quote.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { InFlight } from '../in-flight.ts';
import { checkpoint } from '../storage/checkpoint.ts';
import { assertRoom, DATA_FLOOR_BYTES } from '../storage/disk-full.ts';
import type { Database } from '../storage/duckdb.ts';

// Results kept attached with no one reading them: the ones paged through lately stay ready. DuckDB
// keeps in memory what it wrote or read of an attached file, so those kept are bounded by their files'
// size too; the one used last stays, however large, as the grid pages on through it.
const KEPT_ATTACHED = SERVICE_CACHES.idleAttached;
const KEPT_BYTES = SERVICE_CACHES.idleAttachedBytes;
// Results hold VARIANT columns, which need the storage format of DuckDB 1.5.
export const RESULT_STORAGE_VERSION = 'v1.5.0';
const SUFFIX = '.duckdb';

/** A result's table as SQL names it, and the name of the database it is in. */
export interface ResultTable {
  sql: string;
  catalog: string;
  /** Its rows' sizes (row-sizes.ts) as SQL names them; null for a result stored before they were kept. */
  sizes: string | null;
}

/** The table of a result's rows' sizes, in its file. */
const SIZES_TABLE = 'row_sizes';

interface Attached {
  /** The database's name, unquoted. */
  alias: string;
  users: number;
  dropped: boolean;
  /** When the last user let go (performance.now()); meaningless while there are users. */
  idleSince: number;
  /** The file's size when the last user let go. */
  bytes: number;
  /** Whether the file keeps its rows' sizes. */
  sized: boolean;
}

/**
 * Each stored result is a DuckDB file of its own (`<id>.duckdb`, one table), attached to the results
 * DuckDB while it is written or read. With every result a table of one file, DuckDB held that
 * catalog in memory whole: memory grew with each result kept, more until a checkpoint (see
 * bench/RESULTS.md), and a few thousand small results filled its memory limit.
 *
 * New results are written through a DuckDB of their own (`writer`), attached there alone until
 * written: DuckDB keeps what it writes in memory up to its limit, so a long result (minutes of rows)
 * held the readers' memory full for as long as it ran. With a small limit, what is written goes on
 * to the file as it comes, as fast.
 */
export class ResultFiles {
  readonly db: Database;
  readonly writer: Database;
  readonly #dir: string;
  /** Every result attached for reading, read or not. */
  #attached = new Map<string, Attached>();
  /** Callers asking at once for a result not attached yet share one ATTACH. */
  readonly #attaching = new InFlight<Attached>();
  /** The attached results no one reads, sized by their files; those evicted are detached. */
  readonly #idle = new BoundedCache<string, Attached>({
    entries: KEPT_ATTACHED,
    size: KEPT_BYTES,
    sizeOf: (entry) => entry.bytes,
    removed: (entry, executionId) => this.#detach(executionId, entry),
  });

  constructor(db: Database, writer: Database, dir: string) {
    this.db = db;
    this.writer = writer;
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  path(executionId: string): string {
    return join(this.#dir, `${executionId}${SUFFIX}`);
  }

  /** Refuses (a disk-full error) to write more of a result once the disk is down to the space the service keeps. */
  assertRoom(): void {
    assertRoom(this.#dir, DATA_FLOOR_BYTES);
  }

  /** The executions with a result file, complete or not. */
  ids(): string[] {
    return readdirSync(this.#dir)
      .filter((name) => name.endsWith(SUFFIX))
      .map((name) => name.slice(0, -SUFFIX.length));
  }

  /** Runs `work` with the result's table attached for reading. */
  async use<T>(executionId: string, work: (table: ResultTable) => Promise<T>): Promise<T> {
    const table = await this.acquire(executionId);
    try {
      return await work(table);
    } finally {
      await this.release(executionId);
    }
  }

  /** Whether the result's file keeps its rows' sizes (row-sizes.ts). */
  sized(executionId: string): Promise<boolean> {
    return this.use(executionId, (table) => Promise.resolve(table.sizes !== null));
  }

  /** Attaches the result for reading (counting one more user) and answers its table; `release` when done. */
  async acquire(executionId: string): Promise<ResultTable> {
    const entry = this.#attached.get(executionId) ?? (await this.#attaching.run(executionId, () => this.#attach(executionId)));
    this.#idle.take(executionId);
    entry.users++;
    this.#attached.set(executionId, entry);
    return tableOf(entry.alias, entry.sized);
  }

  /**
   * Starts a new file for the result, in place of any it had, attached to `writer` until `written`;
   * its writer writes its rows' sizes where `sizes` names.
   */
  async create(executionId: string): Promise<ResultTable & { sizes: string }> {
    await this.#forget(executionId);
    const alias = aliasOf(executionId);
    await this.writer.run(`ATTACH ${literal(this.path(executionId))} AS ${q(alias)} (STORAGE_VERSION '${RESULT_STORAGE_VERSION}')`);
    return { ...tableOf(alias, true), sizes: sizesOf(alias) };
  }

  /** Writes what is pending of a new result into its file, so that memory holds nothing of it that a crash could lose. */
  async checkpoint(executionId: string): Promise<void> {
    await this.writer.exclusive((connection) => checkpoint(connection, q(aliasOf(executionId))));
  }

  /** Done writing a new result: its file is attached for reading when asked. */
  async written(executionId: string): Promise<void> {
    await this.writer.run(`DETACH ${q(aliasOf(executionId))}`);
  }

  /**
   * Gives up on a new result: detached from `writer` and deleted. After a failed write (a full
   * disk) DuckDB's DETACH reports that its last write failed too, yet detaches: the file goes all
   * the same, so that a failed result gives its space back at once.
   */
  async discard(executionId: string): Promise<void> {
    await this.written(executionId).catch(() => undefined);
    await this.drop(executionId);
  }

  async release(executionId: string): Promise<void> {
    const entry = this.#attached.get(executionId);
    if (!entry) return;
    entry.users--;
    entry.idleSince = performance.now();
    if (entry.users > 0) return;
    if (entry.dropped) return this.#forget(executionId);
    entry.bytes = fileBytes(this.path(executionId));
    this.#idle.set(executionId, entry);
    await this.#idle.removalsDone();
  }

  /**
   * Detaches the results no one has used for `idleMillis`. DuckDB keeps the blocks it read of an
   * attached file in memory until its limit (hundreds of MB) is reached, and gives them back only
   * when the file is detached: without this, the service stays as large as the busiest moment of
   * its day. A result read again is attached again, in about a millisecond.
   */
  async detachIdle(idleMillis: number): Promise<void> {
    const now = performance.now();
    this.#idle.deleteWhere((entry) => now - entry.idleSince >= idleMillis);
    await this.#idle.removalsDone();
  }

  /** Deletes the result: now, or when its last reader is done. */
  async drop(executionId: string): Promise<void> {
    const entry = this.#attached.get(executionId);
    if (entry && entry.users > 0) entry.dropped = true;
    else await this.#forget(executionId);
  }

  async #attach(executionId: string): Promise<Attached> {
    const path = this.path(executionId);
    // read-write, ATTACH would make an empty file where none is
    if (!existsSync(path)) throw new Error(`the result of execution ${executionId} is not stored`);
    const alias = aliasOf(executionId);
    await this.db.run(`ATTACH ${literal(path)} AS ${q(alias)}`);
    const [found] = await this.db.rows<{ sized: boolean }>(
      `SELECT count(*) > 0 AS sized FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main' AND table_name = ?`,
      [alias, SIZES_TABLE],
    );
    return { alias, users: 0, dropped: false, idleSince: performance.now(), bytes: 0, sized: found?.sized === true };
  }

  async #forget(executionId: string): Promise<void> {
    const entry = this.#attached.get(executionId);
    this.#idle.take(executionId);
    if (entry) await this.#detach(executionId, entry);
    this.#delete(executionId);
  }

  async #detach(executionId: string, entry: Attached): Promise<void> {
    if (this.#attached.get(executionId) === entry) this.#attached.delete(executionId);
    await this.db.run(`DETACH ${q(entry.alias)}`);
  }

  #delete(executionId: string): void {
    const path = this.path(executionId);
    for (const file of [path, `${path}.wal`]) rmSync(file, { force: true });
  }
}

function aliasOf(executionId: string): string {
  return `result_${executionId}`;
}

function tableOf(alias: string, sized: boolean): ResultTable {
  return { sql: `${q(alias)}.main.r`, catalog: alias, sizes: sized ? sizesOf(alias) : null };
}

function sizesOf(alias: string): string {
  return `${q(alias)}.main.${SIZES_TABLE}`;
}

function fileBytes(path: string): number {
  let bytes = 0;
  for (const file of [path, `${path}.wal`]) bytes += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}
