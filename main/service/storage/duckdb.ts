import type { DuckDBConnection, DuckDBInstance, DuckDBPreparedStatement, DuckDBResultReader, DuckDBValue } from '@duckdb/node-api';
import { isInvalidatedDatabase } from '../../common/duckdb-errors.ts';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { SerialQueue } from '../../common/serial-queue.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { isDiskFull } from './disk-full.ts';
import { duckdb } from './duckdb-module.ts';

export type SqlParams = DuckDBValue[];
export type Row = Record<string, unknown>;

// About as many as requests read at once under load; more would only hold memory.
const IDLE_CONNECTIONS = SERVICE_CACHES.idleConnections;
// Statements with values kept prepared, per connection: the service's own, a few dozen in all.
const KEPT_STATEMENTS = SERVICE_CACHES.preparedStatements;

/**
 * One DuckDB instance. Small statements go through one connection, one at a time, so a
 * read-modify-write never interleaves with another; long work (executions, result pages)
 * takes its own connection.
 */
export class Database {
  #instance!: DuckDBInstance;
  #connection!: DuckDBConnection;
  readonly #opening: Opening;
  /** DuckDB gave up on the database (see INVALIDATED): it is opened again before its next use. */
  #invalid = false;
  /** Not opened yet, or closed while idle (see openOnUse): opened before its next use. */
  #closed = true;
  /** `closeIdle` is counting what the database holds. */
  #closing = false;
  /** Closed for good (`close`): nothing more is run on it. */
  #ended = false;
  #usedAt = performance.now();
  /** Connections of an instance given up on, closed as their users release them. */
  #stale = new Set<DuckDBConnection>();
  readonly #turns = new SerialQueue();
  #others = new Set<DuckDBConnection>();
  /** Released connections, kept for the next `connect`: a new one costs a round trip and the session's statements. */
  #idle: DuckDBConnection[] = [];
  #session: string[];
  /**
   * Statements run with values, prepared once per connection. Preparing one, and destroying it
   * after, took the main thread longer than running it: under 16 clients, about a fifth of its time.
   * A connection is used by one caller at a time, so its statements are too.
   */
  #prepared = new WeakMap<DuckDBConnection, BoundedCache<string, DuckDBPreparedStatement>>();

  private constructor(opened: { instance: DuckDBInstance; connection: DuckDBConnection } | null, opening: Opening) {
    if (opened) this.#take(opened);
    this.#opening = opening;
    this.#session = opening.session;
  }

  #take(opened: { instance: DuckDBInstance; connection: DuckDBConnection }): void {
    this.#instance = opened.instance;
    this.#connection = opened.connection;
    this.#closed = false;
  }

  /**
   * `setup` runs once per instance (so again, and must do no harm, when it is opened again);
   * `session` (such as `USE`) on every connection, since each starts afresh; `config` is DuckDB's
   * configuration when the instance starts; `beforeWrite` may refuse (throw) a statement of `run`,
   * `rows` or `transaction` that writes.
   */
  static async open(
    path: string,
    setup: string[] = [],
    session: string[] = [],
    config: Record<string, string> = {},
    beforeWrite: () => void = () => undefined,
  ): Promise<Database> {
    const opening = { path, setup, session, config, beforeWrite };
    return new Database(await openInstance(opening), opening);
  }

  /**
   * A database opened at its first use rather than now, and closed again by `closeIdle`: each
   * DuckDB holds a few MB however idle, so one used now and then (an in-memory one that keeps
   * nothing of its own between uses) holds them only while used. Arguments as for `open`.
   */
  static openOnUse(path: string, setup: string[] = [], session: string[] = [], config: Record<string, string> = {}): Database {
    return new Database(null, { path, setup, session, config, beforeWrite: () => undefined });
  }

  /** Runs `work` with the shared connection, after every earlier call has finished. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#turns.run(async () => {
      if (this.#ended) throw new Error(`${this.#opening.path}: the database was closed`);
      if (this.#invalid || this.#closed) await this.#reopen();
      this.#usedAt = performance.now();
      const instance = this.#instance;
      try {
        return await work(this.#connection);
      } catch (error) {
        this.#noteFailure(error, instance);
        throw error;
      }
    });
  }

  /**
   * A database file DuckDB could not write at a checkpoint (a full disk) is given up on: every
   * statement after fails, until it is opened again. What was committed is in its file and its
   * write-ahead log, so it is opened again (at its next use, in turn with the shared connection's
   * work), which loses nothing. Only a database kept in a file is given up on whole: an in-memory
   * one gives up on the attached file alone, which DETACH then removes.
   */
  #noteFailure(error: unknown, instance: DuckDBInstance): void {
    if (this.#opening.path === ':memory:' || instance !== this.#instance) return;
    if (error instanceof Error && isInvalidatedDatabase(error.message)) this.#invalid = true;
  }

  async #reopen(): Promise<void> {
    const invalid = this.#invalid;
    if (!this.#closed) this.#shut();
    // when this fails (the disk still full), the next use tries again
    this.#take(await openInstance(this.#opening));
    this.#invalid = false;
    if (invalid) console.warn(`[service] ${this.#opening.path}: opened again after DuckDB gave up on it`);
  }

  /** Closes the instance and its connections; those handed out are closed as they come back. */
  #shut(): void {
    for (const connection of [...this.#idle, this.#connection]) closeQuietly(connection);
    for (const connection of this.#others) this.#stale.add(connection);
    this.#idle = [];
    this.#others.clear();
    closeQuietly(this.#instance);
    this.#closed = true;
  }

  /**
   * Closes a database of `openOnUse` that no one has used for `idleMillis`, when it holds nothing:
   * no connection handed out, no other database attached, no table. Its next use opens it again.
   */
  closeIdle(idleMillis: number): Promise<void> {
    return this.#turns.run(async () => {
      if (this.#closed || this.#others.size > 0 || performance.now() - this.#usedAt < idleMillis) return;
      // no connection is handed out until the count is read: one taken meanwhile could attach a
      // file the count missed, or find the database closed under it
      this.#closing = true;
      try {
        const held = await this.#connection.runAndReadAll(HELD_COUNT);
        if (held.getRows()[0]![0] === 0n) this.#shut();
      } finally {
        this.#closing = false;
      }
    });
  }

  async rows<T extends Row = Row>(sql: string, params: SqlParams = []): Promise<T[]> {
    if (!READS.test(sql)) this.#opening.beforeWrite();
    return this.exclusive(async (connection) => (await this.#readAll(connection, sql, params)).getRowObjectsJS() as T[]);
  }

  /**
   * A read on a connection of its own, beside the shared one: reads that each request makes (its
   * execution, its query) do not queue behind each other or behind writes. It sees every write
   * that finished before it was called, not one still waiting its turn.
   */
  async read<T extends Row = Row>(sql: string, params: SqlParams = []): Promise<T[]> {
    const connection = await this.connect();
    const instance = this.#instance;
    try {
      return (await this.#readAll(connection, sql, params)).getRowObjectsJS() as T[];
    } catch (error) {
      this.#noteFailure(error, instance);
      throw error;
    } finally {
      this.release(connection);
    }
  }

  async run(sql: string, params: SqlParams = []): Promise<void> {
    if (!READS.test(sql)) this.#opening.beforeWrite();
    await this.exclusive((connection) => this.#readAll(connection, sql, params));
  }

  async #readAll(connection: DuckDBConnection, sql: string, params: SqlParams): Promise<DuckDBResultReader> {
    if (params.length === 0) return connection.runAndReadAll(sql);
    let kept = this.#prepared.get(connection);
    if (!kept)
      this.#prepared.set(connection, (kept = new BoundedCache({ entries: KEPT_STATEMENTS, removed: (evicted) => evicted.destroySync() })));
    let statement = kept.get(sql);
    if (statement) {
      statement.clearBindings();
    } else {
      statement = await connection.prepare(sql);
      kept.set(sql, statement);
    }
    statement.bind(params);
    return statement.runAndReadAll();
  }

  async transaction<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    this.#opening.beforeWrite();
    return this.exclusive(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        const result = await work(connection);
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK');
        throw error;
      }
    });
  }

  /** A connection of its own until `release`; connections are reused, so one must not change its session. */
  async connect(): Promise<DuckDBConnection> {
    // (a turn of its own waits for a closing to end, and opens the database again if it closed)
    if (this.#invalid || this.#closed || this.#closing) await this.exclusive(async () => undefined);
    this.#usedAt = performance.now();
    const kept = this.#idle.pop();
    if (kept) {
      this.#others.add(kept);
      return kept;
    }
    const connection = await this.#instance.connect();
    this.#others.add(connection);
    for (const sql of this.#session) await connection.run(sql);
    return connection;
  }

  release(connection: DuckDBConnection): void {
    if (this.#stale.delete(connection)) return closeQuietly(connection);
    if (!this.#others.delete(connection)) return;
    this.#usedAt = performance.now();
    if (this.#idle.length < IDLE_CONNECTIONS) this.#idle.push(connection);
    else connection.closeSync();
  }

  /**
   * Closes the database for good, in turn after the work asked of the shared connection before it:
   * work asked after it is refused. (Run beside the turns, a turn asked as it closed ran on the
   * connection it was closing, and the process hung or crashed.)
   */
  close(): Promise<void> {
    return this.#turns.run(async () => {
      if (this.#ended) return;
      this.#ended = true;
      if (this.#closed) return;
      this.#closed = true;
      for (const connection of this.#others) connection.interrupt();
      for (const connection of [...this.#others, ...this.#idle]) connection.closeSync();
      this.#others.clear();
      this.#idle = [];
      try {
        // what a full disk kept from the file stays in the write-ahead log, as durable
        await this.#connection.run('CHECKPOINT').catch((error: unknown) => {
          if (!isDiskFull(error)) throw error;
        });
      } finally {
        this.#connection.closeSync();
        this.#instance.closeSync();
      }
    });
  }
}

interface Opening {
  path: string;
  setup: string[];
  session: string[];
  config: Record<string, string>;
  beforeWrite: () => void;
}

const HELD_COUNT = `SELECT (SELECT count(*) FROM duckdb_databases() WHERE NOT internal AND database_name <> current_database()) + (SELECT count(*) FROM duckdb_tables())`;
// Statements that only read (what `read` runs, and `rows` often does).
const READS = /^\s*(SELECT|WITH|PRAGMA|SHOW|DESCRIBE)\b/i;

async function openInstance(opening: Opening): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const instance = await duckdb.DuckDBInstance.create(opening.path, opening.config);
  const connection = await instance.connect();
  for (const sql of [...opening.session, ...opening.setup]) await connection.run(sql);
  return { instance, connection };
}

/** Closes what belonged to an instance given up on, which may refuse even that. */
function closeQuietly(closable: { closeSync(): void }): void {
  try {
    closable.closeSync();
  } catch {
    // nothing of it is used again
  }
}
