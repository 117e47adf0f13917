import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { firstSortedPage, partsFor } from '../../../../main/service/results/first-sorted-page.ts';
import { plainPage, type PageQuery } from '../../../../main/service/results/page-sql.ts';
import type { PageEncoding } from '../../../../main/service/results/page.ts';
import type { ResultFiles } from '../../../../main/service/results/result-files.ts';
import { ResultReader } from '../../../../main/service/results/result-reader.ts';
import { measureRows } from '../../../../main/service/results/result-writer.ts';
import type { ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';

// The first sorted page of a new filter, read with its count in one pass over parts of the rows, is
// byte for byte the plain path's page, and its total the count's, however the rows split into parts.

const ROWS = 250_000;
const folder = mkdtempSync(join(tmpdir(), 'first-sorted-'));
let files: ResultFiles;
let reader: ResultReader;

// ties on `grp` cross the parts; `__passed` and `__row` are names the read must not take for its own
const COLUMNS: ResultColumn[] = [
  { name: 'id', type: 'BIGINT' },
  { name: 'grp', type: 'VARCHAR' },
  { name: 'amount', type: 'DECIMAL(18,6)' },
  { name: '__passed', type: 'DOUBLE' },
  { name: '__row', type: 'VARCHAR' },
];

beforeAll(async () => {
  files = await openResults(folder, '512MB');
  const table = await files.create('big');
  await files.writer.run(
    `CREATE TABLE ${table.sql} AS SELECT range AS id, ['a', 'b', NULL, 'c'][1 + range % 4] AS grp, ` +
      `((hash(range) % 1000000) / 100)::DECIMAL(18,6) AS amount, (range % 7)::DOUBLE AS __passed, ` +
      `CASE WHEN range % 5 = 0 THEN NULL ELSE md5(range::VARCHAR) END AS __row FROM range(${ROWS})`,
  );
  await files.written('big');
  mkdirSync(join(folder, 'pages'));
  reader = new ResultReader(files, join(folder, 'pages'));
});
afterAll(async () => {
  await Promise.all([files.db.close(), files.writer.close()]);
  rmSync(folder, { recursive: true, force: true });
});

function query(where: BoundSql, orderBy: string, offset: number, limit: number, storedRows = ROWS): PageQuery & { where: BoundSql } {
  return { tableColumns: COLUMNS, columns: COLUMNS.slice(0, 4), where, orderBy, offset, limit, storedRows };
}

const text = (body: Buffer[]) => Buffer.concat(body).toString('latin1');

async function plain(q: PageQuery & { where: BoundSql }, encoding: PageEncoding) {
  return reader.withTable('big', async (connection, table) => ({
    total: await measureRows(connection, table, COLUMNS, q.where),
    page: await plainPage(connection, reader.pages, table, q, encoding),
  }));
}

const leftTables = async () =>
  (await files.db.rows<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() WHERE starts_with(table_name, 'first_')`)).length;

describe('the first sorted page of a new filter', () => {
  const cases: [string, BoundSql, string, number, number][] = [
    ['ties broken by position across parts', { sql: `"grp" = CAST(? AS VARCHAR)`, params: ['b'] }, '"grp" DESC', 0, 100],
    ['nulls last, a deeper window', { sql: `"amount" > CAST(? AS DECIMAL(18,6))`, params: ['5000'] }, '"__row" ASC NULLS LAST', 950, 100],
    ['a window past the rows that pass', { sql: `"id" < CAST(? AS BIGINT)`, params: ['120'] }, '"amount" DESC', 100, 50],
    ['no row passes', { sql: `"id" < CAST(? AS BIGINT)`, params: ['0'] }, '"amount" DESC', 0, 100],
  ];
  for (const encoding of ['json', 'csv', 'parquet'] as const) {
    it.each(cases)(`${encoding}: %s, in parts and in one`, async (_, where, orderBy, offset, limit) => {
      const expected = await plain(query(where, orderBy, offset, limit), encoding);
      for (const storedRows of [ROWS, 1]) {
        const [total, page] = await firstSortedPage(reader, 'big', query(where, orderBy, offset, limit, storedRows), encoding);
        expect(total).toEqual(expected.total);
        expect(page.rowCount).toBe(expected.page.rowCount);
        expect(page.bytes).toBe(expected.page.bytes);
        if (encoding !== 'parquet') expect(text(page.body)).toBe(text(expected.page.body));
      }
      expect(await leftTables()).toBe(0);
    });
  }

  it('gives the same Parquet rows as the plain path', async () => {
    const q = query({ sql: `"grp" = CAST(? AS VARCHAR)`, params: ['a'] }, '"amount" ASC', 10, 200);
    const [, page] = await firstSortedPage(reader, 'big', q, 'parquet');
    const expected = await plain(q, 'parquet');
    const rowsOf = async (body: Buffer[]) => {
      const path = join(folder, `check-${Math.random()}.parquet`);
      await writeFile(path, Buffer.concat(body));
      return files.db.rows(`SELECT * FROM read_parquet('${path}')`);
    };
    expect(await rowsOf(page.body)).toEqual(await rowsOf(expected.page.body));
  });

  it('splits a large result into parts only when nothing else is read', () => {
    expect(partsFor(ROWS, 0)).toBe(Math.min(2, availableParallelism()));
    expect(partsFor(ROWS, 1)).toBe(1);
    expect(partsFor(1_000, 0)).toBe(1);
  });

  it('answers the error of a filter DuckDB refused, leaving no table behind', async () => {
    const refused = query({ sql: `"amount" > CAST(? AS DECIMAL(18,6))`, params: ['many'] }, '"amount" DESC', 0, 100);
    await expect(firstSortedPage(reader, 'big', refused, 'json')).rejects.toThrow(/Conversion Error|Could not convert/);
    expect(await leftTables()).toBe(0);
  });
});
