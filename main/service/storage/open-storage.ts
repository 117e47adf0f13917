import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TableFiles } from '../tables/table-files.ts';
import { Database } from './duckdb.ts';
import { META_SCHEMA } from './meta-schema.ts';
import { openResults } from './results-file.ts';

/**
 * The DuckDB files of a data directory:
 * - meta: accounts, keys, queries, executions (never reached by user SQL);
 * - results: one table per stored result (written by the service only);
 * - tables/: one file per uploaded table; an execution attaches, read-only, only those its
 *   context may read (see Sandboxes).
 */
export interface Storage {
  meta: Database;
  results: Database;
  /** In memory, with file access: reads uploaded files and writes table files, never runs user SQL. */
  files: Database;
  tableFiles: TableFiles;
  close(): Promise<void>;
}

// DuckDB keeps what it read in memory up to its limit, by default most of the machine's: on a
// desktop beside other programs, each database gets a bound (what does not fit goes to disk).
const MEMORY = { meta: '128MB', results: '512MB', files: '512MB' };

export async function openStorage(dataDir: string): Promise<Storage> {
  mkdirSync(join(dataDir, 'tmp'), { recursive: true });
  const meta = await Database.open(join(dataDir, 'service.duckdb'), META_SCHEMA, [], { memory_limit: MEMORY.meta });
  const results = await openResults(join(dataDir, 'results.duckdb'), MEMORY.results);
  // in memory, it would spill large uploads into the process's working folder
  const spill = join(dataDir, 'tmp', 'files').replaceAll("'", "''");
  const files = await Database.open(':memory:', [`SET temp_directory = '${spill}'`], [], { memory_limit: MEMORY.files });
  return {
    meta,
    results,
    files,
    tableFiles: new TableFiles(join(dataDir, 'tables')),
    async close() {
      await Promise.all([files.close(), results.close(), meta.close()]);
    },
  };
}
