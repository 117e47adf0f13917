import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Database, quoteIdentifier } from './duckdb.ts';
import { META_SCHEMA } from './meta-schema.ts';

/**
 * Three DuckDB files, so that user SQL never sees the service's own records:
 * - meta: accounts, keys, queries, executions (never reached by user SQL);
 * - results: one table per stored result (written by the service only);
 * - tables: uploaded tables; user SQL runs here, with file access disabled and locked, under
 *   the catalog name that SQL uses for uploads (`dune.<handle>.dataset_<name>`).
 */
export interface Storage {
  meta: Database;
  results: Database;
  tables: Database;
  /** In memory, with file access: reads uploaded files for `tables`, never runs user SQL. */
  files: Database;
  close(): Promise<void>;
}

export async function openStorage(dataDir: string, catalog: string): Promise<Storage> {
  mkdirSync(join(dataDir, 'tmp'), { recursive: true });
  const meta = await Database.open(join(dataDir, 'service.duckdb'), META_SCHEMA);
  // pages are written by DuckDB, timestamps with a time zone included: in UTC
  const results = await Database.open(join(dataDir, 'results.duckdb'), [], [`SET TimeZone = 'UTC'`]);
  const tablesFile = join(dataDir, 'tables.duckdb').replaceAll("'", "''");
  const tables = await Database.open(
    ':memory:',
    [`SET enable_external_access = false`, `SET lock_configuration = true`],
    [`ATTACH IF NOT EXISTS '${tablesFile}' AS ${quoteIdentifier(catalog)}`, `USE ${quoteIdentifier(catalog)}`],
  );
  const files = await Database.open(':memory:');
  return {
    meta,
    results,
    tables,
    files,
    async close() {
      await Promise.all([files.close(), tables.close(), results.close(), meta.close()]);
    },
  };
}
