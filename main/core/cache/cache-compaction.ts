import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';

// DuckDB reuses the blocks that dropped tables and rewritten row groups free, but gives a file's
// space back only when those blocks are at its end, and never the blocks a transaction killed
// before its commit had written past the end: evicted entries, dropped downloads and kills leave
// the file at its largest. So when the cache opens, or is idle after entries went, and enough of
// its file holds no live block, the live tables are copied into a fresh file, which then takes the
// old one's name. Until that rename the old file is untouched, and a fresh file left by a crash
// before it is removed at the next open; the rename itself is atomic.

/** A file is compacted once this share of it, and at least MIN_WASTE_BYTES, holds no live block. */
const WASTE_SHARE = 0.25;
const MIN_WASTE_BYTES = 8 * 1024 ** 2;

/**
 * Compacts the file open in the connection's database when enough of it holds no live block:
 * writes the fresh copy, closes the database through `close` (which writes out its log), and puts
 * the copy in its place. Answers whether it closed the database, to be opened again.
 */
export async function compactIfWasteful(
  connection: DuckDBConnection,
  file: string,
  storageVersion: string,
  close: () => Promise<void>,
): Promise<boolean> {
  // the blocks of tables dropped since the last checkpoint are free only once it has run (and those at the end given back)
  await connection.run('CHECKPOINT');
  if (!(await isWasteful(connection, file))) return false;
  const written = await writeCompacted(connection, file, storageVersion).then(
    () => true,
    // the disk may be too full for a second copy: the cache goes on with the file as it is
    () => false,
  );
  await close();
  if (written) swapCompacted(file);
  dropUnfinishedCompaction(file);
  return true;
}

function freshPath(file: string): string {
  return `${file}.compact`;
}

/** Removes a fresh file (and its log) that a compaction cut short left beside `file`. */
export function dropUnfinishedCompaction(file: string): void {
  for (const leftover of [freshPath(file), `${freshPath(file)}.wal`]) rmSync(leftover, { force: true });
}

/** Whether enough of `file`, open in the connection's database, holds no live block to copy it. */
async function isWasteful(connection: DuckDBConnection, file: string): Promise<boolean> {
  const [used, blockSize] = (
    await connection.runAndReadAll('SELECT used_blocks, block_size FROM pragma_database_size() WHERE database_name = current_database()')
  ).getRows()[0]!;
  const size = statSync(file).size;
  const waste = size - Number(used) * Number(blockSize);
  return waste >= MIN_WASTE_BYTES && waste >= size * WASTE_SHARE;
}

/** Copies every table of the connection's database into a fresh file beside `file`, in DuckDB's `storageVersion` format. */
async function writeCompacted(connection: DuckDBConnection, file: string, storageVersion: string): Promise<void> {
  dropUnfinishedCompaction(file);
  const current = String((await connection.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
  await connection.run(`ATTACH ${quoteLiteral(freshPath(file))} AS compacted (STORAGE_VERSION ${quoteLiteral(storageVersion)})`);
  try {
    // insertion order is kept: a result's rows are read in rowid order
    await connection.run(`COPY FROM DATABASE ${quoteIdentifier(current)} TO compacted`);
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
