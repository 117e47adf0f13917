import { realpathSync } from 'node:fs';
import { link, mkdir, rm } from 'node:fs/promises';
import { join, parse } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier as q, quoteLiteral } from '../storage/duckdb.ts';
import { DATA, type TableFiles } from '../tables/table-files.ts';
import type { TableRecord, TableStore } from '../tables/table-store.ts';

// Several contexts' DuckDBs live side by side; left at DuckDB's default (most of the machine's
// memory each) they could together take more than the machine has.
const MEMORY_LIMIT = '2GB';

export interface SandboxOptions {
  /** The catalog name tables are seen under (`dune`). */
  catalog: string;
  /** Where each DuckDB spills what does not fit in memory, a folder of its own under it. */
  tempDir: string;
  /** Folders of the host that no answer to user SQL may name (the data folder, home, working folder). */
  hiddenPaths: string[];
}

/** A connection of one execution's own; `close` when done with it. */
export interface Sandbox {
  connection: DuckDBConnection;
  close(): void;
}

/** One context's DuckDB, for as long as the tables it may read stay the same. */
interface ContextDb {
  /** The readable tables it was built with, as names and files; null when one could not be attached, so it is built again. */
  tables: string | null;
  instance: DuckDBInstance;
  held: string[];
  users: number;
  retired: boolean;
}

/** The key of the DuckDB that holds public tables only (no account has this id). */
const PUBLIC_ONLY = -1;

// Contexts whose DuckDB is kept between executions; the least recently used beyond them is closed.
const KEPT_CONTEXTS = 8;

/**
 * Where an execution's SQL runs: an in-memory DuckDB of the caller's context that holds only the
 * table files the context may read (its own tables, and others' public ones), attached read-only.
 * Others' private tables are not checked against: they are not there at all, whatever the SQL
 * (`query_table`, `query`, catalog functions) tries. Each table keeps its SQL name as a view
 * `<catalog>.<handle>.<table>` in an in-memory catalog; then file access is disabled and the
 * configuration locked, so the SQL can attach nothing more. Attaching takes about 2 ms a table, so
 * a context's DuckDB serves its executions (each on a connection of its own) until the set of
 * tables it may read changes.
 */
export class Sandboxes {
  #store: TableStore;
  #files: TableFiles;
  #options: SandboxOptions;
  #hidden: RegExp | null;
  #spilled = 0;
  #linked = 0;
  #contexts = new Map<number, ContextDb>();
  // Starting a DuckDB takes tens of milliseconds, about what a small query takes: the next
  // one is started ahead, bare, and gets its tables when taken.
  #spare: Promise<DuckDBInstance> | null = null;

  constructor(store: TableStore, files: TableFiles, options: SandboxOptions) {
    this.#store = store;
    this.#files = files;
    this.#options = options;
    // Each folder also as the file system resolves it (`/var/…` is `/private/var/…` on macOS), as
    // DuckDB may name it so; longest first, so that a folder inside another is hidden whole; only
    // where a path starts, so that a folder's name inside another (`/tmp` in `<data folder>/tmp/…`,
    // or in `<hidden>/tmp/…` when hidden twice) is not hidden again.
    const named = options.hiddenPaths.flatMap((path) => [path, resolvedPath(path)]);
    const folders = [...new Set(named)].filter((path) => path !== parse(path).root).sort((a, b) => b.length - a.length);
    const escaped = folders.map((path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.#hidden = folders.length === 0 ? null : new RegExp(`(?<![\\w.\\-/\\\\>])(?:${escaped.join('|')})`, 'g');
  }

  /** `text` (an error or a plan a client is answered) with every host folder replaced by `<hidden>`. */
  hidePaths(text: string): string {
    return this.#hidden === null ? text : text.replace(this.#hidden, '<hidden>');
  }

  /** A connection that sees every public table, and the private ones of `privateOf` (none when null). */
  async open(privateOf: number | null): Promise<Sandbox> {
    const db = await this.#contextDb(privateOf ?? PUBLIC_ONLY);
    try {
      const connection = await db.instance.connect();
      await connection.run(`USE ${q(this.#options.catalog)}`);
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

  /** Closes every DuckDB once its executions are done (the executor has stopped them first). */
  async close(): Promise<void> {
    for (const db of this.#contexts.values()) this.#retire(db);
    this.#contexts.clear();
    const spare = this.#spare;
    this.#spare = null;
    (await spare?.catch(() => null))?.closeSync();
  }

  /** The context's DuckDB, counting one more user (counted here, so that no one retires it unseen). */
  async #contextDb(accountId: number): Promise<ContextDb> {
    let tables = await this.#store.readable(accountId);
    const kept = this.#contexts.get(accountId);
    if (kept && kept.tables === describe(tables)) {
      this.#contexts.delete(accountId);
      this.#contexts.set(accountId, kept); // now the most recently used
      kept.users++;
      return kept;
    }
    // a table replaced between listing and holding its file: list again
    while (!this.#files.acquire(tables.map((t) => t.file))) tables = await this.#store.readable(accountId);
    const held = tables.map((t) => t.file);
    let instance: DuckDBInstance | null = null;
    let attachedAll: boolean;
    try {
      instance = await this.#takeSpare();
      attachedAll = await this.#furnish(instance, tables);
    } catch (error) {
      instance?.closeSync();
      this.#files.release(held);
      throw error;
    }
    const db: ContextDb = { tables: attachedAll ? describe(tables) : null, instance, held, users: 1, retired: false };
    const replaced = this.#contexts.get(accountId);
    if (replaced) this.#retire(replaced);
    this.#contexts.delete(accountId);
    this.#contexts.set(accountId, db);
    for (const [id, old] of this.#contexts) {
      if (this.#contexts.size <= KEPT_CONTEXTS) break;
      this.#contexts.delete(id);
      this.#retire(old);
    }
    return db;
  }

  /**
   * Attaches the tables under their SQL names, then takes away file access and settings. DuckDB
   * keeps every attached file (and its `.wal` siblings) writable by path when file access goes:
   * each is attached through a hard link in a folder removed right after, so the paths user SQL
   * could write to lead nowhere, and it cannot make the folder again. (The folder it spills into
   * stays writable by path, as DuckDB needs it: there the statement check keeps every write out.)
   * A file that cannot be attached fails only the executions that read its table; false then, so
   * that the next execution tries it again.
   */
  async #furnish(instance: DuckDBInstance, tables: TableRecord[]): Promise<boolean> {
    const connection = await instance.connect();
    let attachedAll = true;
    const links = join(this.#options.tempDir, `attach-${++this.#linked}`);
    try {
      const catalog = q(this.#options.catalog);
      await connection.run(`ATTACH ':memory:' AS ${catalog}`);
      for (const namespace of new Set(tables.map((t) => t.namespace))) await connection.run(`CREATE SCHEMA ${catalog}.${q(namespace)}`);
      await mkdir(links, { recursive: true });
      for (const [i, table] of tables.entries()) {
        const view = `${catalog}.${q(table.namespace)}.${q(table.tableName)}`;
        // a name no handle can take (handles have no spaces), so `<handle>.<table>` stays unambiguous
        const attached = q(`table file ${i}`);
        try {
          await connection.run(`ATTACH ${quoteLiteral(await this.#link(table.file, links))} AS ${attached} (READ_ONLY)`);
          await connection.run(`CREATE VIEW ${view} AS SELECT * FROM ${attached}.main.${DATA}`);
        } catch (error) {
          attachedAll = false;
          const reason = this.hidePaths((error instanceof Error ? error.message : String(error)).split('\n')[0]!);
          const message = `table ${this.#options.catalog}.${table.namespace}.${table.tableName} cannot be read: its file could not be opened (${reason}); its owner can upload it again`;
          await connection.run(`CREATE VIEW ${view} AS SELECT * FROM range(1) WHERE error(${quoteLiteral(message)})`);
        }
      }
      await connection.run(`SET enable_external_access = false; SET lock_configuration = true`);
      return attachedAll;
    } finally {
      connection.closeSync();
      // Where a system keeps an open file's name until it is closed (Windows before POSIX deletes),
      // the links stay until the next start empties the temporary folder: the statement check still
      // keeps every write out, and no execution fails for it.
      await rm(links, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** A hard link to the table file in `links`; the file itself where the file system has no hard links. */
  async #link(file: string, links: string): Promise<string> {
    const linked = join(links, file);
    try {
      await link(this.#files.path(file), linked);
      return linked;
    } catch {
      // still read-only to user SQL: the statement check lets no write run
      return this.#files.path(file);
    }
  }

  #leave(db: ContextDb): void {
    db.users--;
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
    return DuckDBInstance.create(':memory:', { memory_limit: MEMORY_LIMIT, temp_directory });
  }
}

function resolvedPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function describe(tables: TableRecord[]): string {
  return tables.map((t) => `${t.namespace}.${t.tableName}=${t.file}`).join('\n');
}
