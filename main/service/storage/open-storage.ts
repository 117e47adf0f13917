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

export async function openStorage(dataDir: string): Promise<Storage> {
  mkdirSync(join(dataDir, 'tmp'), { recursive: true });
  const meta = await Database.open(join(dataDir, 'service.duckdb'), META_SCHEMA);
  const results = await openResults(join(dataDir, 'results.duckdb'));
  // in memory, it would spill large uploads into the process's working folder
  const spill = join(dataDir, 'tmp', 'files').replaceAll("'", "''");
  const files = await Database.open(':memory:', [`SET temp_directory = '${spill}'`]);
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
