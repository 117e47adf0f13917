import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { PageWriter } from '../../../../main/service/results/page-writer.ts';
import type { ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// A table of every type the service writes in a way of its own, for the page tests.

export const ROWS = 30_000;
// `unsafe` holds one integer past 2^53, at row 2,500; `text` holds quotes, commas, a line break, '' and NULL
export const TYPED_ROWS_SQL = `SELECT (i % 100)::TINYINT AS tiny,
  CASE WHEN i = 2500 THEN 9007199254740993 ELSE i * 1000 END::BIGINT AS unsafe, i::HUGEINT AS huge, i::UBIGINT AS ubig,
  (i * 7)::DECIMAL(38,0) AS dec0, (i::DOUBLE / 8)::DECIMAL(10,2) AS dec2, (i::DOUBLE / 4)::FLOAT AS f,
  CASE WHEN i = 2600 THEN 'nan'::DOUBLE ELSE i::DOUBLE / 3 END AS dbl, i % 2 = 0 AS yes, NULL::INTEGER AS nothing,
  CASE i % 4 WHEN 0 THEN 'say "hi", then' || chr(10) || 'leave' WHEN 1 THEN '' WHEN 2 THEN NULL ELSE 'plain ' || i END AS text,
  DATE '2024-02-29' + i::INTEGER AS d, TIMESTAMP '2024-01-02 03:04:05.678912' + to_seconds(i) AS ts,
  TIMESTAMPTZ '2024-01-02 03:04:05.5+02:00' AS tstz, [i, NULL] AS list, {'a': i, 'b': 'x'} AS struct,
  '{"k": [1, 2]}'::JSON AS j, i::VARIANT AS v
FROM range(${ROWS}) r(i)`;

/** The table `t` of those rows in an in-memory DuckDB, and a page writer whose files go to `dir`. */
export interface TypedRows {
  db: Database;
  connection: DuckDBConnection;
  columns: ResultColumn[];
  dir: string;
  writer: PageWriter;
  close(): Promise<void>;
}

export async function openTypedRows(): Promise<TypedRows> {
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-pages-'));
  const db = await Database.open(':memory:', [`CREATE TABLE t AS ${TYPED_ROWS_SQL}`], [`SET TimeZone = 'UTC'`]);
  const connection = await db.connect();
  const columns = (await connection.runAndReadAll('DESCRIBE t'))
    .getRows()
    .map(([name, type]) => ({ name: String(name), type: String(type) }));
  return {
    db,
    connection,
    columns,
    dir,
    writer: new PageWriter(db, dir),
    async close() {
      db.release(connection);
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
