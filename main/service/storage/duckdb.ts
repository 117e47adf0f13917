import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';

export type SqlParams = DuckDBValue[];
export type Row = Record<string, unknown>;

// About as many as requests read at once under load; more would only hold memory.
const IDLE_CONNECTIONS = 8;
// Statements with values kept prepared, per connection: the service's own, a few dozen in all.
const KEPT_STATEMENTS = 64;

/**
 * One DuckDB instance. Small statements go through one connection, one at a time, so a
 * read-modify-write never interleaves with another; long work (executions, result pages)
 * takes its own connection.
 */
export class Database {
  readonly instance: DuckDBInstance;
  #connection: DuckDBConnection;
  #tail: Promise<unknown> = Promise.resolve();
  #others = new Set<DuckDBConnection>();
  /** Released connections, kept for the next `connect`: a new one costs a round trip and the session's statements. */
  #idle: DuckDBConnection[] = [];
  #session: string[];
  /**
   * Statements run with values, prepared once per connection. Preparing one, and destroying it
   * after, took the main thread longer than running it: under 16 clients, about a fifth of its time.
   * A connection is used by one caller at a time, so its statements are too.
   */
  #prepared = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

  private constructor(instance: DuckDBInstance, connection: DuckDBConnection, session: string[]) {
    this.instance = instance;
    this.#connection = connection;
    this.#session = session;
  }

  /**
   * `setup` runs once; `session` (such as `USE`) on every connection, since each starts afresh;
   * `config` is DuckDB's configuration when the instance starts.
   */
  static async open(path: string, setup: string[] = [], session: string[] = [], config: Record<string, string> = {}): Promise<Database> {
    const instance = await DuckDBInstance.create(path, config);
    const connection = await instance.connect();
    for (const sql of [...session, ...setup]) await connection.run(sql);
    return new Database(instance, connection, session);
  }

  /** Runs `work` with the shared connection, after every earlier call has finished. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => work(this.#connection));
    this.#tail = result.catch(() => undefined);
    return result;
  }

  async rows<T extends Row = Row>(sql: string, params: SqlParams = []): Promise<T[]> {
    return this.exclusive(async (connection) => (await this.#readAll(connection, sql, params)).getRowObjectsJS() as T[]);
  }

  /**
   * A read on a connection of its own, beside the shared one: reads that each request makes (its
   * execution, its query) do not queue behind each other or behind writes. It sees every write
   * that finished before it was called, not one still waiting its turn.
   */
  async read<T extends Row = Row>(sql: string, params: SqlParams = []): Promise<T[]> {
    const connection = await this.connect();
    try {
      return (await this.#readAll(connection, sql, params)).getRowObjectsJS() as T[];
    } finally {
      this.release(connection);
    }
  }

  async run(sql: string, params: SqlParams = []): Promise<void> {
    await this.exclusive((connection) => this.#readAll(connection, sql, params));
  }

  async #readAll(connection: DuckDBConnection, sql: string, params: SqlParams): Promise<DuckDBResultReader> {
    if (params.length === 0) return connection.runAndReadAll(sql);
    let kept = this.#prepared.get(connection);
    if (!kept) this.#prepared.set(connection, (kept = new Map()));
    let statement = kept.get(sql);
    if (statement) {
      kept.delete(sql);
      statement.clearBindings();
    } else {
      statement = await connection.prepare(sql);
      if (kept.size >= KEPT_STATEMENTS) {
        const [oldest, evicted] = kept.entries().next().value!;
        kept.delete(oldest);
        evicted.destroySync();
      }
    }
    kept.set(sql, statement);
    statement.bind(params);
    return statement.runAndReadAll();
  }

  async transaction<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
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
    const kept = this.#idle.pop();
    if (kept) {
      this.#others.add(kept);
      return kept;
    }
    const connection = await this.instance.connect();
    this.#others.add(connection);
    for (const sql of this.#session) await connection.run(sql);
    return connection;
  }

  release(connection: DuckDBConnection): void {
    if (!this.#others.delete(connection)) return;
    if (this.#idle.length < IDLE_CONNECTIONS) this.#idle.push(connection);
    else connection.closeSync();
  }

  async close(): Promise<void> {
    await this.#tail;
    for (const connection of this.#others) connection.interrupt();
    for (const connection of [...this.#others, ...this.#idle]) connection.closeSync();
    this.#others.clear();
    this.#idle = [];
    await this.#connection.run('CHECKPOINT');
    this.#connection.closeSync();
    this.instance.closeSync();
  }
}

/**
 * The values to run a statement with, or none: DuckDB's client prepares a statement (and destroys
 * it after) whenever it is given values, even an empty list, which took the main thread longer
 * than the rest of a short read.
 */
export function valuesOf(params: SqlParams): SqlParams | undefined {
  return params.length > 0 ? params : undefined;
}

/** A DuckDB string literal in single quotes, whatever it contains. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A DuckDB identifier in double quotes, whatever it contains. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const OTHERS_WRITING = /Cannot CHECKPOINT: there are other write transactions active/;
const CHECKPOINT_TRIES = 20;

/**
 * Writes an attached database's committed changes into its file. DuckDB refuses while another
 * connection's write transaction is open, even one that writes elsewhere: it is tried again a
 * little later, and if that never comes the changes stay in the write-ahead log, as durable,
 * which DETACH or the next ATTACH writes in.
 */
export async function checkpoint(connection: Pick<DuckDBConnection, 'run'>, alias: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await connection.run(`CHECKPOINT ${alias}`);
      return;
    } catch (error) {
      if (!(error instanceof Error && OTHERS_WRITING.test(error.message))) throw error;
      if (attempt === CHECKPOINT_TRIES) return;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}
