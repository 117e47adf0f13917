import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duckdbBytes, SERVICE_DUCKDB_BYTES } from '../../common/memory-budgets.ts';
import { quoteLiteral } from '../../common/sql-quote.ts';
import type { ResultFiles } from '../results/result-files.ts';
import { TableFiles } from '../tables/table-files.ts';
import { assertRoom, RECORDS_FLOOR_BYTES } from './disk-full.ts';
import { Database } from './duckdb.ts';
import { hashStoredKeys } from './hash-stored-keys.ts';
import { META_SCHEMA } from './meta-schema.ts';
import { openResults } from './results-file.ts';

/**
 * The DuckDB files of a data directory:
 * - meta: accounts, keys, queries, executions (never reached by user SQL);
 * - results/: one file per stored result (written by the service only), see ResultFiles;
 * - tables/: one file per uploaded table; an execution attaches, read-only, only those its
 *   context may read (see Sandboxes).
 */
export interface Storage {
  meta: Database;
  results: ResultFiles;
  /** In memory, with file access: reads uploaded files and writes table files, never runs user SQL. */
  files: Database;
  tableFiles: TableFiles;
  /** Closes the DuckDBs opened on use (`files`, the results' reader and writer) that nothing has used for `idleMillis`. */
  closeIdle(idleMillis: number): Promise<void>;
  close(): Promise<void>;
}

// DuckDB keeps what it read in memory up to its limit, by default most of the machine's: on a
// desktop beside other programs, each database gets a bound (what does not fit goes to disk).
const MEMORY = {
  meta: duckdbBytes(SERVICE_DUCKDB_BYTES.records),
  results: duckdbBytes(SERVICE_DUCKDB_BYTES.resultReader),
  files: duckdbBytes(SERVICE_DUCKDB_BYTES.tableFiles),
};
// DuckDB's allocator keeps freed memory in caches up to a threshold before it goes back to the OS;
// a lower one, flushed by background threads, lets the service shrink after a burst of reads. The
// allocator is one for the whole process, so setting it on one database sets it for all.
const ALLOCATOR = { allocator_background_threads: 'true', allocator_flush_threshold: '16MB' };

export async function openStorage(dataDir: string): Promise<Storage> {
  mkdirSync(join(dataDir, 'tmp'), { recursive: true });
  await hashStoredKeys(join(dataDir, 'service.duckdb'));
  const meta = await Database.open(join(dataDir, 'service.duckdb'), META_SCHEMA, [], { memory_limit: MEMORY.meta, ...ALLOCATOR }, () =>
    assertRoom(dataDir, RECORDS_FLOOR_BYTES),
  );
  const results = await openResults(dataDir, MEMORY.results);
  // in memory, it would spill large uploads into the process's working folder
  const spill = join(dataDir, 'tmp', 'files');
  // used by uploads and table changes alone: opened for them, and closed when idle
  const files = Database.openOnUse(':memory:', [`SET temp_directory = ${quoteLiteral(spill)}`], [], { memory_limit: MEMORY.files });
  return {
    meta,
    results,
    files,
    tableFiles: new TableFiles(join(dataDir, 'tables')),
    async closeIdle(idleMillis) {
      await Promise.all([files.closeIdle(idleMillis), results.db.closeIdle(idleMillis), results.writer.closeIdle(idleMillis)]);
    },
    async close() {
      await Promise.all([files.close(), results.db.close(), results.writer.close(), meta.close()]);
    },
  };
}
