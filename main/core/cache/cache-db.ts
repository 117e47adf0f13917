import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { giveBackMemory } from '../../common/give-back-memory.ts';
import { CACHE_DUCKDB_BYTES, duckdbBytes, IDLE_GIVE_BACK_MILLIS } from '../../common/memory-budgets.ts';
import { PAGE_READ_SETTINGS } from '../../common/page-reads.ts';
import { SerialQueue } from '../../common/serial-queue.ts';
import { duckdbModule } from '../duckdb-module.ts';
import { compactIfWasteful, dropUnfinishedCompaction } from './cache-compaction.ts';

// The cache's DuckDB file. Short statements on the manifest go through one connection, one at a
// time, so a swap never interleaves with an eviction; reads and loads take connections of their
// own, which run side by side.

export interface CacheDb {
  /** The cache's folder, which holds the file and the pages read in place (see pages-view.ts). */
  readonly dir: string;
  /** Runs `work` on the shared connection once every earlier call has finished. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Runs `work` on a connection of its own, closed afterwards. */
  withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Runs `work` while DuckDB works on one thread, as long as any such work runs (see below). */
  oneThread<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `work` once no connection taken through withConnection is in use (at once when none is). */
  afterReads(work: () => void): void;
  /** Starts writing what the file holds so far to disk, unless that is under way already (see below). */
  writeBack(): void;
  /** Gives the file's space back when much of it holds no live data, unless a connection is in use (see cache-compaction.ts). */
  compactWhenIdle(): Promise<void>;
  /** Drops the blocks of the file DuckDB keeps in memory, unless a connection is in use; done by itself once the cache has been idle a while. */
  giveBackMemoryWhenIdle(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA = [
  // DuckDB would take most of the machine's memory by default; the app shares it with the UI, and
  // sorts or loads past this spill to disk instead
  `SET memory_limit = '${duckdbBytes(CACHE_DUCKDB_BYTES)}'`,
  // a download's rows are loaded in one transaction (see page-loader.ts): each row group is written
  // to the file as it fills, not five at once, so that the commit at the end has one row group to
  // write, not up to five (the time it took is in bench/RESULTS.md)
  'SET write_buffer_row_group_count = 1',
  // text is kept as it is, not in dictionaries of FSST-compressed strings (in this file format the
  // only dictionaries text has): choosing and building FSST's symbol tables took a large share of
  // a download's CPU in the app, and downloads, grid pages and profiles were faster without them,
  // for a larger file (the figures are in bench/RESULTS.md)
  "SET disabled_compression_methods = 'fsst,dict_fsst'",
  `CREATE TABLE IF NOT EXISTS cache_entries (
    account_id VARCHAR NOT NULL,
    execution_id VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    column_names VARCHAR[] NOT NULL,
    wire_types VARCHAR[] NOT NULL,
    storage_types VARCHAR[] NOT NULL,
    row_count BIGINT NOT NULL,
    bytes BIGINT NOT NULL,
    is_partial BOOLEAN NOT NULL,
    expires_at TIMESTAMP,
    fetched_at TIMESTAMP NOT NULL,
    last_used TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, execution_id)
  )`,
  // downloads broken off, for the next start to go on from (see resumable-downloads.ts)
  `CREATE TABLE IF NOT EXISTS kept_downloads (
    account_id VARCHAR NOT NULL,
    execution_id VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    row_count BIGINT NOT NULL,
    kept_at TIMESTAMP NOT NULL
  )`,
];

const MAX_IDLE = 4;

// DuckDB writes files readable by its releases since 0.10 unless told otherwise, and so without the
// compressions and storage it has gained since: with that older format, a download took much more
// of the app's CPU than with this one (text compressed as set above in both; see bench/RESULTS.md).
// A cache made with the older format keeps it: a file's format
// is set when it is made.
const STORAGE_VERSION = 'v1.5.0';

// Every connection reads and writes timestamps in UTC, whatever the machine's zone.
const SESSION = ["SET TimeZone = 'UTC'"];

interface OpenFile {
  instance: DuckDBInstance;
  shared: DuckDBConnection;
  // kept open until DuckDB has closed the file: on POSIX, closing any descriptor of a file drops
  // the locks the process holds on it, DuckDB's among them. Where the file cannot be opened beside
  // DuckDB (Windows may refuse), there is no write-back.
  writer: FileHandle | null;
}

async function openFile(file: string): Promise<OpenFile> {
  const instance = await duckdbModule().DuckDBInstance.create(file, {
    storage_compatibility_version: STORAGE_VERSION,
    ...PAGE_READ_SETTINGS,
  });
  const shared = await instance.connect();
  for (const sql of [...SESSION, ...SCHEMA]) await shared.run(sql);
  return { instance, shared, writer: await open(file, 'r+').catch(() => null) };
}

export async function openCacheDb(dir: string): Promise<CacheDb> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'results.duckdb');
  dropUnfinishedCompaction(file);
  const db = new CacheFile(file, await openFile(file));
  await db.compact();
  // a plain object, which a caller may copy with some of its functions replaced (tests count write-backs so)
  return {
    dir,
    afterReads: (work) => db.afterReads(work),
    exclusive: (work) => db.exclusive(work),
    withConnection: (work) => db.withConnection(work),
    oneThread: (work) => db.oneThread(work),
    writeBack: () => db.writeBack(),
    compactWhenIdle: () => db.compactWhenIdle(),
    giveBackMemoryWhenIdle: () => db.giveBackMemoryWhenIdle(),
    close: () => db.close(),
  };
}

class CacheFile {
  readonly #file: string;
  #current: OpenFile;
  #writingBack: Promise<void> | null = null;
  readonly #others = new Set<DuckDBConnection>();
  // a grid reads page after page: idle connections are kept for the next read instead of reopened
  readonly #idle: DuckDBConnection[] = [];
  readonly #turns = new SerialQueue();
  #closed = false;
  #oneThreadWork = 0;
  /** Connections taken or being taken; while a compaction runs (`swapping`), none is. */
  #users = 0;
  #swapping: Promise<void> | null = null;
  /** Work waiting for the connections in use to be done (see afterReads). */
  readonly #afterReads: (() => void)[] = [];
  /** Gives memory back once no connection has been used for a while (see giveBackMemoryWhenIdle). */
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(file: string, opened: OpenFile) {
    this.#file = file;
    this.#current = opened;
  }

  async #take(): Promise<DuckDBConnection> {
    const reused = this.#idle.pop();
    if (reused) return reused;
    const connection = await this.#current.instance.connect();
    for (const sql of SESSION) await connection.run(sql);
    return connection;
  }

  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    this.#used();
    return this.#turns.run(() => work(this.#current.shared));
  }

  // A grid's reads and a download fill DuckDB's memory with blocks of the file, which it keeps up
  // to its limit: once the cache has been idle a while, they are dropped.
  #used(): void {
    clearTimeout(this.#idleTimer);
    if (this.#closed) return;
    this.#idleTimer = setTimeout(() => void this.giveBackMemoryWhenIdle().catch(() => undefined), IDLE_GIVE_BACK_MILLIS);
    this.#idleTimer.unref();
  }

  /** Closes DuckDB's database (which writes out its log) and the write-back's handle. */
  async #closeFile(): Promise<void> {
    for (const connection of this.#idle.splice(0)) connection.closeSync();
    this.#current.shared.closeSync();
    this.#current.instance.closeSync();
    await this.#writingBack;
    await this.#current.writer?.close();
  }

  /** Compacts the file when it is wasteful, and opens it again if it was closed for that. */
  async compact(): Promise<void> {
    if (await compactIfWasteful(this.#current.shared, this.#file, STORAGE_VERSION, () => this.#closeFile()))
      this.#current = await openFile(this.#file);
  }

  async withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    while (this.#swapping !== null) await this.#swapping;
    this.#users++;
    this.#used();
    let connection: DuckDBConnection | null = null;
    let reusable = false;
    try {
      connection = await this.#take();
      this.#others.add(connection);
      const result = await work(connection);
      reusable = true;
      return result;
    } finally {
      this.#users--;
      if (this.#users === 0) for (const work of this.#afterReads.splice(0)) work();
      if (connection !== null) {
        this.#others.delete(connection);
        // after a failure the connection may hold an open transaction or a half-read stream
        if (reusable && !this.#closed && this.#idle.length < MAX_IDLE) this.#idle.push(connection);
        else connection.closeSync();
      }
    }
  }

  afterReads(work: () => void): void {
    if (this.#users === 0) work();
    else this.#afterReads.push(work);
  }

  // A download loads its pages one or two at a time as they arrive. On this 2-core machine a
  // second DuckDB thread made those loads take more CPU for the same rows (bench/RESULTS.md),
  // which the service beside the app, the UI
  // and the network stack were waiting for; reads meanwhile get one thread too. The threads come
  // back in turn with the shared connection's work, not waited for: a download's finish does not
  // wait behind the statements queued before it, and its last loads take the second thread as it comes.
  async oneThread<T>(work: () => Promise<T>): Promise<T> {
    if (this.#oneThreadWork++ === 0) await this.exclusive((connection) => connection.run('SET threads = 1'));
    try {
      return await work();
    } finally {
      if (--this.#oneThreadWork === 0 && !this.#closed)
        void this.exclusive(async (connection) => {
          if (this.#oneThreadWork === 0) await connection.run('RESET threads');
        }).catch(() => undefined);
    }
  }

  // A download's rows reach the file as DuckDB fills row groups, and its commit waits until the
  // disk has them all, after the last page has come. The
  // disk is given what is written as the download goes, so the commit finds little left to sync.
  writeBack(): void {
    if (this.#current.writer === null || this.#writingBack !== null || this.#closed) return;
    this.#writingBack = this.#current.writer
      .datasync()
      .catch(() => undefined)
      .finally(() => (this.#writingBack = null));
  }

  // The file is closed and opened again for a compaction, so it runs only while no connection
  // but the shared one is in use: new ones wait until it is over.
  compactWhenIdle(): Promise<void> {
    return this.#whileIdle(() => this.compact());
  }

  giveBackMemoryWhenIdle(): Promise<void> {
    return this.#whileIdle(() => giveBackMemory((sql) => this.#current.shared.run(sql), CACHE_DUCKDB_BYTES));
  }

  /** Runs `work` on the shared connection's turn unless a connection is in use; new ones wait until it is done. */
  #whileIdle(work: () => Promise<void>): Promise<void> {
    return this.#turns.run(async () => {
      if (this.#closed || this.#users > 0) return;
      let done = () => undefined as void;
      this.#swapping = new Promise<void>((resolve) => (done = resolve));
      try {
        await work();
      } finally {
        this.#swapping = null;
        done();
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    for (const connection of this.#others) connection.interrupt();
    await this.#turns.settled();
    await this.#current.shared.run('CHECKPOINT').catch(() => undefined);
    await this.#closeFile();
  }
}
