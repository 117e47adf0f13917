import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { plainPage, type PageQuery } from '../../../../main/service/results/page-sql.ts';
import type { Page, PageEncoding } from '../../../../main/service/results/page.ts';
import type { ResultFiles } from '../../../../main/service/results/result-files.ts';
import { ResultReader } from '../../../../main/service/results/result-reader.ts';
import { measureRows } from '../../../../main/service/results/result-writer.ts';
import type { ResultColumn, StoredSize } from '../../../../main/service/results/row-bytes.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';

// A stored result, `big`, in a results folder of its own, for the tests of the ways a filtered page
// is read, each held to the plain path's page and the count's total.

export interface StoredResult {
  /** Ties and nulls to sort on, and two columns named as the reads name their own. */
  columns: ResultColumn[];
  files: ResultFiles;
  reader: ResultReader;
  /** The page and the total of `query` as the plain path and the count read them. */
  plain(query: PageQuery & { where: BoundSql }, encoding: PageEncoding): Promise<{ total: StoredSize; page: Page }>;
  /** The rows of a Parquet page, as DuckDB reads them. */
  parquetRows(body: Buffer[]): Promise<unknown[]>;
  close(): Promise<void>;
}

/** `rows` rows, the fourth column named `taken` (a name a read takes for its own), the fifth `__row`. */
export async function storeResult(rows: number, taken: string): Promise<StoredResult> {
  const columns: ResultColumn[] = [
    { name: 'id', type: 'BIGINT' },
    { name: 'grp', type: 'VARCHAR' },
    { name: 'amount', type: 'DECIMAL(18,6)' },
    { name: taken, type: 'DOUBLE' },
    { name: '__row', type: 'VARCHAR' },
  ];
  const folder = mkdtempSync(join(tmpdir(), 'stored-result-'));
  const files = await openResults(folder, '512MB');
  const table = await files.create('big');
  await files.writer.run(
    `CREATE TABLE ${table.sql} AS SELECT range AS id, ['a', 'b', NULL, 'c'][1 + range % 4] AS grp, ` +
      `CASE WHEN range % 11 = 0 THEN NULL ELSE ((hash(range) % 1000000) / 100)::DECIMAL(18,6) END AS amount, (range % 7)::DOUBLE AS "${taken}", ` +
      `CASE WHEN range % 5 = 0 THEN NULL ELSE md5(range::VARCHAR) END AS __row FROM range(${rows})`,
  );
  await files.written('big');
  mkdirSync(join(folder, 'pages'));
  const reader = new ResultReader(files, join(folder, 'pages'));
  let checked = 0;
  return {
    columns,
    files,
    reader,
    plain: (query, encoding) =>
      reader.withTable('big', async (connection, stored) => ({
        total: await measureRows(connection, stored, columns, query.where),
        page: await plainPage(connection, reader.pages, stored, query, encoding),
      })),
    parquetRows: async (body) => {
      const path = join(folder, `check-${++checked}.parquet`);
      await writeFile(path, Buffer.concat(body));
      return files.db.rows(`SELECT * FROM read_parquet('${path}')`);
    },
    close: async () => {
      await Promise.all([files.db.close(), files.writer.close()]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
