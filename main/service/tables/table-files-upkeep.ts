import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import type { Database } from '../storage/duckdb.ts';
import type { TableData } from './table-data.ts';
import { DATA, type TableFiles } from './table-files.ts';
import type { TableStore } from './table-store.ts';

/** Where data directories made before tables had files of their own kept them all. */
const SHARED_FILE = 'tables.duckdb';

/**
 * At start: moves the tables of a former shared file into files of their own (once: the shared
 * file is then renamed `tables.duckdb.converted`, kept for the operator to delete), then deletes
 * table files no table points to.
 */
export async function prepareTableFiles(
  dataDir: string,
  files: Database,
  store: TableStore,
  data: TableData,
  tableFiles: TableFiles,
): Promise<void> {
  const shared = join(dataDir, SHARED_FILE);
  if (existsSync(shared)) {
    await convertSharedFile(shared, files, store, data, tableFiles);
    for (const suffix of ['', '.wal']) if (existsSync(shared + suffix)) renameSync(shared + suffix, `${shared}.converted${suffix}`);
    console.log(`[service] uploaded tables moved from ${SHARED_FILE} to files of their own; ${SHARED_FILE}.converted can be deleted`);
  }
  tableFiles.sweep(new Set((await store.all()).map((t) => t.file)));
}

async function convertSharedFile(path: string, files: Database, store: TableStore, data: TableData, tableFiles: TableFiles): Promise<void> {
  const connection = await files.connect();
  // read-write, so that what its write-ahead log still holds is read too
  await connection.run(`ATTACH ${quoteLiteral(path)} AS shared`);
  try {
    for (const table of await store.all()) {
      if (table.file) continue;
      const reader = await connection.runAndReadAll(
        `SELECT column_name, data_type, is_nullable FROM duckdb_columns()
         WHERE database_name = 'shared' AND schema_name = ? AND table_name = ? ORDER BY column_index`,
        [table.namespace, table.tableName],
      );
      const columns = reader.getRowObjectsJS() as { column_name: string; data_type: string; is_nullable: boolean }[];
      if (columns.length === 0) {
        console.warn(`[service] table ${table.namespace}.${table.tableName} has no data in ${SHARED_FILE}; its record is removed`);
        await store.remove(table.namespace, table.tableName);
        continue;
      }
      const file = await data.create(columns.map((c) => ({ name: c.column_name, type: c.data_type, nullable: c.is_nullable })));
      await connection.run(`ATTACH ${quoteLiteral(tableFiles.path(file))} AS target`);
      await connection.run(`INSERT INTO target.${DATA} SELECT * FROM shared.${q(table.namespace)}.${q(table.tableName)}`);
      await connection.run(`CHECKPOINT target`);
      await connection.run(`DETACH target`);
      await store.put({ ...table, file });
    }
  } finally {
    await connection.run(`DETACH shared`);
    files.release(connection);
  }
}
