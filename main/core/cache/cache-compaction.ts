import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from './cache-db.ts';

// DuckDB reuses the blocks that dropped tables and rewritten row groups free, but gives a file's
// space back only when those blocks are at its end, and never the blocks a transaction killed
// before its commit had written past the end: evicted entries, dropped downloads and kills leave
// the file at its largest. So when the cache opens and enough of its file holds no live block,
// the live tables are copied into a fresh file, which then takes the old one's name. Until that
// rename the old file is untouched, and a fresh file left by a crash before it is removed at the
// next open; the rename itself is atomic.

/** A file is compacted once this share of it, and at least MIN_WASTE_BYTES, holds no live block. */
const WASTE_SHARE = 0.25;
const MIN_WASTE_BYTES = 8 * 1024 ** 2;

/** The cache file open in DuckDB, with a connection that has its settings. */
export interface OpenedFile {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
}

/** Opens `file` through `open`, once compacted when enough of it holds no live block. */
export async function openCompacted(file: string, storageVersion: string, open: () => Promise<OpenedFile>): Promise<OpenedFile> {
  dropUnfinishedCompaction(file);
  const opened = await open();
  if (!(await isWasteful(opened.connection, file))) return opened;
  const written = await writeCompacted(opened.connection, file, storageVersion).then(
    () => true,
    // the disk may be too full for a second copy: the cache goes on with the file as it is
    () => false,
  );
  // closing DuckDB's database writes out its log
  opened.connection.closeSync();
  opened.instance.closeSync();
  if (written) swapCompacted(file);
  dropUnfinishedCompaction(file);
  return open();
}

function freshPath(file: string): string {
  return `${file}.compact`;
}

/** Removes a fresh file (and its log) that a compaction cut short left beside `file`. */
function dropUnfinishedCompaction(file: string): void {
  for (const leftover of [freshPath(file), `${freshPath(file)}.wal`]) rmSync(leftover, { force: true });
}

/** Whether enough of `file`, open in the connection's database, holds no live block to copy it. */
async function isWasteful(connection: DuckDBConnection, file: string): Promise<boolean> {
  const [used, blockSize] = (await connection.runAndReadAll('SELECT used_blocks, block_size FROM pragma_database_size() WHERE database_name = current_database()')).getRows()[0]!;
  const size = statSync(file).size;
  const waste = size - Number(used) * Number(blockSize);
  return waste >= MIN_WASTE_BYTES && waste >= size * WASTE_SHARE;
}

/** Copies every table of the connection's database into a fresh file beside `file`, in DuckDB's `storageVersion` format. */
async function writeCompacted(connection: DuckDBConnection, file: string, storageVersion: string): Promise<void> {
  dropUnfinishedCompaction(file);
  const current = String((await connection.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
  await connection.run(`ATTACH ${sqlString(freshPath(file))} AS compacted (STORAGE_VERSION ${sqlString(storageVersion)})`);
  try {
    // insertion order is kept: a result's rows are read in rowid order
    await connection.run(`COPY FROM DATABASE "${current.replaceAll('"', '""')}" TO compacted`);
  } finally {
    await connection.run('DETACH compacted');
  }
}

/**
 * Puts the fresh file in `file`'s place once DuckDB has closed both. Nothing is swapped when
 * either has a log left (the old file's would otherwise be replayed onto the fresh one).
 */
function swapCompacted(file: string): void {
  const fresh = freshPath(file);
  if (existsSync(`${file}.wal`) || existsSync(`${fresh}.wal`) || !existsSync(fresh)) return;
  syncPath(fresh);
  try {
    renameSync(fresh, file);
  } catch {
    // another process may hold the file (Windows refuses then): it is compacted at a later open
    return;
  }
  syncPath(dirname(file));
}

function syncPath(path: string): void {
  let handle: number | null = null;
  try {
    handle = openSync(path, 'r');
    fsyncSync(handle);
  } catch {
    // some systems (Windows) cannot open or sync a folder: the rename is then as durable as they make it
  } finally {
    if (handle !== null) closeSync(handle);
  }
}
