import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { compactIfWasteful, dropUnfinishedCompaction } from './cache-compaction.ts';

// The cache's DuckDB file. Short statements on the manifest go through one connection, one at a
// time, so a swap never interleaves with an eviction; reads and loads take connections of their
// own, which run side by side.

export interface CacheDb {
  /** Runs `work` on the shared connection once every earlier call has finished. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Runs `work` on a connection of its own, closed afterwards. */
  withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Runs `work` while DuckDB works on one thread, as long as any such work runs (see below). */
  oneThread<T>(work: () => Promise<T>): Promise<T>;
  /** Starts writing what the file holds so far to disk, unless that is under way already (see below). */
  writeBack(): void;
  /** Gives the file's space back when much of it holds no live data, unless a connection is in use (see cache-compaction.ts). */
  compactWhenIdle(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA = [
  // DuckDB would take most of the machine's memory by default; the app shares it with the UI, and
  // sorts or loads past this spill to disk instead
  "SET memory_limit = '1GB'",
  // a download's rows are loaded in one transaction (see page-loader.ts): each row group is written
  // to the file as it fills, not five at once, so that the commit at the end has one row group to
  // write, not up to five (120 ms of the time after a download's last byte for the demo result)
  'SET write_buffer_row_group_count = 1',
  // text is kept as it is, not in dictionaries of FSST-compressed strings (in this file format the
  // only dictionaries text has): choosing and building FSST's symbol tables took about a fifth of
  // a download's CPU in the app. For the million-row demo result (`npm run bench`, two runs each):
  // downloads of 0.44-0.50 s against 0.49-0.58 s, a filtered, sorted grid page in 17.1-18.4 ms
  // against 20.4-20.8 ms, a text column's profile in 36 ms against 48 ms; the file is 32.5 MB
  // against 11.5 MB
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
  // downloads broken off, for the next start to go on from (see kept-downloads.ts)
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
// compressions and storage it has gained since: with that older format, the million-row demo
// result took 640-700 ms of the app's CPU to download against 440-510 ms with this one (text
// compressed as set above in both). A cache made with the older format keeps it: a file's format
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
  const instance = await DuckDBInstance.create(file, { storage_compatibility_version: STORAGE_VERSION });
  const shared = await instance.connect();
  for (const sql of [...SESSION, ...SCHEMA]) await shared.run(sql);
  return { instance, shared, writer: await open(file, 'r+').catch(() => null) };
}

export async function openCacheDb(dir: string): Promise<CacheDb> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'results.duckdb');
  dropUnfinishedCompaction(file);
  let current = await openFile(file);
  let writingBack: Promise<void> | null = null;
  const others = new Set<DuckDBConnection>();
  // a grid reads page after page: idle connections are kept for the next read instead of reopened
  const idle: DuckDBConnection[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;
  let oneThreadWork = 0;
  /** Connections taken or being taken; while a compaction runs (`swapping`), none is. */
  let users = 0;
  let swapping: Promise<void> | null = null;

  async function take(): Promise<DuckDBConnection> {
    const reused = idle.pop();
    if (reused) return reused;
    const connection = await current.instance.connect();
    for (const sql of SESSION) await connection.run(sql);
    return connection;
  }

  function exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const result = tail.then(() => work(current.shared));
    tail = result.catch(() => undefined);
    return result;
  }

  /** Closes DuckDB's database (which writes out its log) and the write-back's handle. */
  async function closeFile(): Promise<void> {
    for (const connection of idle.splice(0)) connection.closeSync();
    current.shared.closeSync();
    current.instance.closeSync();
    await writingBack;
    await current.writer?.close();
  }

  /** Compacts the file when it is wasteful, and opens it again if it was closed for that. */
  async function compact(): Promise<void> {
    if (await compactIfWasteful(current.shared, file, STORAGE_VERSION, closeFile)) current = await openFile(file);
  }

  await compact();

  return {
    exclusive,
    async withConnection(work) {
      while (swapping !== null) await swapping;
      users++;
      let connection: DuckDBConnection | null = null;
      let reusable = false;
      try {
        connection = await take();
        others.add(connection);
        const result = await work(connection);
        reusable = true;
        return result;
      } finally {
        users--;
        if (connection !== null) {
          others.delete(connection);
          // after a failure the connection may hold an open transaction or a half-read stream
          if (reusable && !closed && idle.length < MAX_IDLE) idle.push(connection);
          else connection.closeSync();
        }
      }
    },
    // A download loads its pages one or two at a time as they arrive. On this 2-core machine a
    // second DuckDB thread made those loads take 30-50% more CPU for the same rows (0.8-1.1 s
    // against 0.63 s for the million-row demo result), which the service beside the app, the UI
    // and the network stack were waiting for; reads meanwhile get one thread too.
    async oneThread(work) {
      if (oneThreadWork++ === 0) await exclusive((connection) => connection.run('SET threads = 1'));
      try {
        return await work();
      } finally {
        if (--oneThreadWork === 0 && !closed) await exclusive((connection) => connection.run('RESET threads')).catch(() => undefined);
      }
    },
    // A download's rows reach the file as DuckDB fills row groups, and its commit waits until the
    // disk has them all: 14 ms for the million-row demo result, after the last page had come. The
    // disk is given what is written as the download goes, so the commit finds little left to sync.
    writeBack() {
      if (current.writer === null || writingBack !== null || closed) return;
      writingBack = current.writer
        .datasync()
        .catch(() => undefined)
        .finally(() => (writingBack = null));
    },
    // The file is closed and opened again for a compaction, so it runs only while no connection
    // but the shared one is in use: new ones wait until it is over.
    compactWhenIdle() {
      return exclusive(async () => {
        if (closed || users > 0) return;
        let done = () => undefined as void;
        swapping = new Promise<void>((resolve) => (done = resolve));
        try {
          await compact();
        } finally {
          swapping = null;
          done();
        }
      });
    },
    async close() {
      closed = true;
      for (const connection of others) connection.interrupt();
      await tail;
      await current.shared.run('CHECKPOINT').catch(() => undefined);
      await closeFile();
    },
  };
}
