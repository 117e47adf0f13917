import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckdbBytes, SERVICE_CACHES, SERVICE_DUCKDB_BYTES } from '../../common/memory-budgets.ts';
import { namesSampleTables } from '../samples/sample-names.ts';
import type { SampleTables } from '../samples/sample-tables.ts';
import { duckdb } from '../storage/duckdb-module.ts';
import type { TableFiles } from '../tables/table-files.ts';
import type { TableStore } from '../tables/table-store.ts';
import type { ExecutionBudget } from './execution-budget.ts';
import { hostPathsHider } from './host-paths.ts';
import type { ServiceBudget } from './plan-limits.ts';
import { describeTables, furnish } from './sandbox-tables.ts';

// A spare DuckDB waits with this much memory; it gets its context's budget when taken.
const SPARE_MEMORY_LIMIT = duckdbBytes(SERVICE_DUCKDB_BYTES.spareExecution);

export interface SandboxOptions {
  /** The catalog name tables are seen under (`dune`). */
  catalog: string;
  /** Where each DuckDB spills what does not fit in memory, a folder of its own under it. */
  tempDir: string;
  /** Folders of the host that no answer to user SQL may name (the data folder, home, working folder). */
  hiddenPaths: string[];
  /** The service's memory and spill for executions, which every context's DuckDB takes its budget from. */
  budget: ExecutionBudget;
  /** The sample of Dune's tables, read-only to every context, made when first named. */
  samples: SampleTables;
}

/**
 * A place for one execution in a context's DuckDB, given before it starts (see `reserve`): the
 * DuckDB's budget is taken from the service's unless a DuckDB with that budget is kept already.
 */
export interface Reservation {
  key: string;
  privateOf: number | null;
  budget: ServiceBudget;
  /** Whether the budget was taken for it (then owned by the DuckDB it opens, or given back). */
  taken: boolean;
  /** The kept DuckDB it counts as a user of, so that no other reservation closes it to make room. */
  kept: ContextDb | null;
}

/** A connection of one execution's own; `close` when done with it. */
export interface Sandbox {
  connection: DuckDBConnection;
  close(): void;
}

/** One context's DuckDB, for as long as the tables it may read stay the same. */
interface ContextDb {
  /** The readable tables it was built with, as names and files (the sample's too); null when one could not be attached, so it is built again. */
  tables: string | null;
  /** Its memory and spill limits, taken from the service's budget until it is shut. */
  budget: ServiceBudget;
  instance: DuckDBInstance;
  held: string[];
  users: number;
  /** When its last user let go (performance.now()). */
  idleSince: number;
  retired: boolean;
}

/** The key of the DuckDB that holds public tables only (no account has this id). */
const PUBLIC_ONLY = -1;

// One DuckDB per context and budget: a context's executions share its memory and spill limits,
// and another context's query (public tables only) runs within the starter's plan's.
const keyOf = (privateOf: number | null, budget: ServiceBudget) => `${privateOf ?? PUBLIC_ONLY}:${budget.memoryBytes}:${budget.spillBytes}`;

// Contexts whose DuckDB is kept between executions; the least recently used beyond them is closed.
const KEPT_CONTEXTS = SERVICE_CACHES.idleContexts;

/**
 * Where an execution's SQL runs: an in-memory DuckDB of the caller's context that holds only the
 * table files the context may read (its own tables, and others' public ones), attached read-only.
 * Others' private tables are not checked against: they are not there at all, whatever the SQL
 * (`query_table`, `query`, catalog functions) tries. Each table keeps its SQL name as a view
 * `<catalog>.<handle>.<table>` in an in-memory catalog; then file access is disabled and the
 * configuration locked, so the SQL can attach nothing more. Attaching takes time for each table, so
 * a context's DuckDB serves its executions (each on a connection of its own) until the set of
 * tables it may read changes.
 *
 * Names of two parts resolve as on Dune: in the DuckDB's default catalog, `<schema>.<table>` is
 * Dune's table (the sample, read-only, see attachSamples) and every other `<handle>.<table>` the
 * uploaded table; so a context whose handle is a schema of Dune's (`ethereum`) reaches its own
 * `transactions` as `dune.ethereum.transactions`, and `ethereum.transactions` stays Dune's.
 */
export class Sandboxes {
  #store: TableStore;
  #files: TableFiles;
  #options: SandboxOptions;
  #hidden: (text: string) => string;
  #spilled = 0;
  #linked = 0;
  #contexts = new Map<string, ContextDb>();
  // Starting a DuckDB takes tens of milliseconds, about what a small query takes: the next
  // one is started ahead, bare, and gets its tables when taken.
  #spare: Promise<DuckDBInstance> | null = null;

  constructor(store: TableStore, files: TableFiles, options: SandboxOptions) {
    this.#store = store;
    this.#files = files;
    this.#options = options;
    this.#hidden = hostPathsHider(options.hiddenPaths);
  }

  /** `text` (an error or a plan a client is answered) with every host folder replaced by `<hidden>`. */
  hidePaths(text: string): string {
    return this.#hidden(text);
  }

  /**
   * A place for an execution that sees every public table, and the private ones of `privateOf`
   * (none when null), within `budget`; null while the service's budget is taken by DuckDBs in
   * use. Idle DuckDBs are closed, least recently used first, to make room.
   */
  reserve(privateOf: number | null, budget: ServiceBudget): Reservation | null {
    const key = keyOf(privateOf, budget);
    const kept = this.#contexts.get(key) ?? null;
    if (kept) {
      kept.users++;
      return { key, privateOf, budget, taken: false, kept };
    }
    if (!this.#takeBudget(budget)) return null;
    return { key, privateOf, budget, taken: true, kept: null };
  }

  /** Gives back what a reservation that is not going to be opened holds. */
  forgo(reservation: Reservation): void {
    if (reservation.taken) this.#options.budget.give(reservation.budget);
    reservation.taken = false;
    if (reservation.kept) this.#leave(reservation.kept);
    reservation.kept = null;
  }

  /** The reserved place's connection, for running `sql` (which may need the sample tables made first). */
  async open(reservation: Reservation, sql: string): Promise<Sandbox> {
    let db: ContextDb;
    try {
      if (namesSampleTables(sql)) await this.#options.samples.make();
      db = await this.#contextDb(reservation);
    } catch (error) {
      this.forgo(reservation);
      throw error;
    }
    try {
      const connection = await db.instance.connect();
      return {
        connection,
        close: () => {
          connection.closeSync();
          this.#leave(db);
        },
      };
    } catch (error) {
      this.#leave(db);
      throw error;
    }
  }

  /** Closes the DuckDBs unused for `idleMillis`: one holds what its executions left in memory until it closes. */
  closeIdle(idleMillis: number): void {
    const now = performance.now();
    for (const [key, db] of this.#contexts) {
      if (db.users > 0 || now - db.idleSince < idleMillis) continue;
      this.#contexts.delete(key);
      this.#retire(db);
    }
  }

  /** Closes every DuckDB once its executions are done (the executor has stopped them first). */
  async close(): Promise<void> {
    for (const db of this.#contexts.values()) this.#retire(db);
    this.#contexts.clear();
    const spare = this.#spare;
    this.#spare = null;
    (await spare?.catch(() => null))?.closeSync();
  }

  /** Takes `budget` from the service's, closing idle DuckDBs (least recently used first) while it does not fit. */
  #takeBudget(budget: ServiceBudget): boolean {
    const { budget: service } = this.#options;
    for (const [key, db] of this.#contexts) {
      if (service.fits(budget)) break;
      if (db.users > 0) continue;
      this.#contexts.delete(key);
      this.#retire(db);
    }
    return service.take(budget);
  }

  /** The context's DuckDB, with one more user (counted before any wait, so that no one shuts it unseen). */
  async #contextDb(reservation: Reservation): Promise<ContextDb> {
    const { key, budget, kept } = reservation;
    let tables = await this.#store.readable(reservation.privateOf ?? PUBLIC_ONLY);
    let samples = this.#options.samples.file;
    if (kept && kept.tables === describeTables(tables, samples)) {
      reservation.kept = null; // its user, counted when reserved, is this execution
      if (!kept.retired) {
        this.#contexts.delete(key);
        this.#contexts.set(key, kept); // now the most recently used
      }
      return kept;
    }
    if (kept) {
      reservation.kept = null;
      this.#leave(kept);
    }
    // the DuckDB kept when it was reserved has other tables now: a new one needs its own budget
    while (!reservation.taken) {
      if (this.#takeBudget(budget)) reservation.taken = true;
      else await this.#options.budget.released();
    }
    // a table replaced between listing and holding its file: list again
    while (!this.#files.acquire(tables.map((t) => t.file))) tables = await this.#store.readable(reservation.privateOf ?? PUBLIC_ONLY);
    samples = this.#options.samples.file;
    const held = tables.map((t) => t.file);
    let instance: DuckDBInstance | null = null;
    let attachedAll: boolean;
    try {
      instance = await this.#takeSpare();
      await this.#limit(instance, budget);
      attachedAll = await furnish(instance, tables, samples, {
        catalog: this.#options.catalog,
        links: join(this.#options.tempDir, `attach-${++this.#linked}`),
        pathOf: (file) => this.#files.path(file),
        hidePaths: (text) => this.hidePaths(text),
      });
    } catch (error) {
      instance?.closeSync();
      this.#files.release(held);
      throw error;
    }
    reservation.taken = false; // the DuckDB's own now, given back when it is shut
    const db: ContextDb = {
      tables: attachedAll ? describeTables(tables, samples) : null,
      budget,
      instance,
      held,
      users: 1,
      idleSince: 0,
      retired: false,
    };
    const replaced = this.#contexts.get(key);
    if (replaced) this.#retire(replaced);
    this.#contexts.delete(key);
    this.#contexts.set(key, db);
    for (const [id, old] of this.#contexts) {
      if (this.#contexts.size <= KEPT_CONTEXTS) break;
      this.#contexts.delete(id);
      this.#retire(old);
    }
    return db;
  }

  // Set here rather than when the DuckDB is created: DuckDB 1.5 shows a max_temp_directory_size
  // given at creation as its setting, but spills on past it; one set afterwards holds.
  async #limit(instance: DuckDBInstance, budget: ServiceBudget): Promise<void> {
    const connection = await instance.connect();
    try {
      await connection.run(`SET memory_limit = '${budget.memoryBytes}B'; SET max_temp_directory_size = '${budget.spillBytes}B'`);
    } finally {
      connection.closeSync();
    }
  }

  #leave(db: ContextDb): void {
    db.users--;
    db.idleSince = performance.now();
    if (db.retired && db.users === 0) this.#shut(db);
  }

  /** No longer handed out; closed when its last execution is done. */
  #retire(db: ContextDb): void {
    db.retired = true;
    if (db.users === 0) this.#shut(db);
  }

  #shut(db: ContextDb): void {
    db.instance.closeSync();
    this.#files.release(db.held);
    this.#options.budget.give(db.budget);
  }

  #takeSpare(): Promise<DuckDBInstance> {
    const taken = this.#spare ?? this.#create();
    const next = this.#create();
    next.catch(() => undefined); // a failure shows when the spare is taken
    this.#spare = next;
    return taken;
  }

  // An in-memory DuckDB spills into the process's working folder unless told otherwise; each gets
  // a folder of its own, as DuckDB names its spill files alike in every instance.
  #create(): Promise<DuckDBInstance> {
    const temp_directory = join(this.#options.tempDir, `sql-${++this.#spilled}`);
    return duckdb.DuckDBInstance.create(':memory:', { memory_limit: SPARE_MEMORY_LIMIT, temp_directory });
  }
}
