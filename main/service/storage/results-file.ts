import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { duckdbBytes, SERVICE_DUCKDB_BYTES } from '../../common/memory-budgets.ts';
import { PAGE_READ_SETTINGS } from '../../common/page-reads.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { ResultFiles } from '../results/result-files.ts';
import { Database } from './duckdb.ts';

// pages are written by DuckDB, timestamps with a time zone included: in UTC
const SESSION = [`SET TimeZone = 'UTC'`];

// Enough for a row group of wide rows on its way to the file; what it writes leaves memory as it goes.
const WRITER_MEMORY = duckdbBytes(SERVICE_DUCKDB_BYTES.resultWriter);

// The results are read by many requests at once, each statement on a thread of its own (libuv's),
// which already keeps every core busy: DuckDB's own workers beside them only contended for the
// cores. With one thread, first reads and the making of filtered views were faster in
// bench:service, and the rest held (the figures are in bench/RESULTS.md).
const READ_THREADS = '1';

/** The stored results of a data folder: `results/`, a file each, read through one DuckDB in memory and written through another. */
export async function openResults(dataDir: string, memoryLimit: string): Promise<ResultFiles> {
  const spill = (name: string) => `SET temp_directory = ${quoteLiteral(join(dataDir, 'tmp', name))}`;
  // both opened as a result is read or written, and closed once none has been for a while
  const db = Database.openOnUse(':memory:', [spill('results')], SESSION, {
    memory_limit: memoryLimit,
    threads: READ_THREADS,
    ...PAGE_READ_SETTINGS,
  });
  const writer = Database.openOnUse(':memory:', [spill('results-written')], SESSION, { memory_limit: WRITER_MEMORY });
  const files = new ResultFiles(db, writer, join(dataDir, 'results'));
  await moveFromOneFile(join(dataDir, 'results.duckdb'), files);
  return files;
}

/**
 * Results stored by releases that kept all of them in `results.duckdb`, one table each, are moved
 * into files of their own. The old file goes last, so a move cut short starts again at the next start.
 */
async function moveFromOneFile(path: string, files: ResultFiles): Promise<void> {
  if (!existsSync(path)) return;
  const { writer } = files;
  await writer.run(`ATTACH ${quoteLiteral(path)} AS one_file (READ_ONLY)`);
  let moved = 0;
  try {
    const tables = await writer.rows<{ name: string }>(
      `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'one_file' AND starts_with(table_name, 'r_')`,
    );
    for (const { name } of tables) {
      const executionId = name.slice(2);
      const table = await files.create(executionId);
      try {
        // in the order the rows were stored: a page's order ties are broken by it
        await writer.run(`CREATE TABLE ${table.sql} AS SELECT * FROM one_file.main.${q(name)} ORDER BY rowid`);
        await files.checkpoint(executionId);
      } finally {
        await files.written(executionId);
      }
      moved++;
    }
  } finally {
    await writer.run('DETACH one_file');
  }
  await rm(path, { force: true });
  await rm(`${path}.wal`, { force: true });
  console.log(`[service] ${moved} stored results moved into a file each`);
}
