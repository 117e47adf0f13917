import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { plainPage } from '../../../../main/service/results/page-sql.ts';
import type { PageEncoding } from '../../../../main/service/results/page.ts';
import type { ResultFiles } from '../../../../main/service/results/result-files.ts';
import { ResultReader } from '../../../../main/service/results/result-reader.ts';
import { measureRows } from '../../../../main/service/results/result-writer.ts';
import type { ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { SortViews, type SortedFilterQuery } from '../../../../main/service/results/sort-views.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';

// New filters under a sort asked before are read from a view of the whole result in that sort,
// made in the background: each page is byte for byte the plain path's, and each total the count's.

const ROWS = 60_000;
const folder = mkdtempSync(join(tmpdir(), 'sort-views-'));
let files: ResultFiles;
let reader: ResultReader;

// ties and nulls in the sort; `__bytes` and `__row` are names the view must not take for its own
const COLUMNS: ResultColumn[] = [
  { name: 'id', type: 'BIGINT' },
  { name: 'grp', type: 'VARCHAR' },
  { name: 'amount', type: 'DECIMAL(18,6)' },
  { name: '__bytes', type: 'DOUBLE' },
  { name: '__row', type: 'VARCHAR' },
];

beforeAll(async () => {
  files = await openResults(folder, '512MB');
  const table = await files.create('big');
  await files.writer.run(
    `CREATE TABLE ${table.sql} AS SELECT range AS id, ['a', 'b', NULL, 'c'][1 + range % 4] AS grp, ` +
      `CASE WHEN range % 11 = 0 THEN NULL ELSE ((hash(range) % 1000000) / 100)::DECIMAL(18,6) END AS amount, (range % 7)::DOUBLE AS __bytes, ` +
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

const filter = (sql: string, ...params: string[]): BoundSql => ({ sql, params });

function query(where: BoundSql, orderBy: string, offset = 0, limit = 100): SortedFilterQuery {
  return { tableColumns: COLUMNS, columns: COLUMNS.slice(0, 4), where, orderBy, offset, limit, storedRows: ROWS };
}

const text = (body: Buffer[]) => Buffer.concat(body).toString('latin1');

async function plain(q: SortedFilterQuery, encoding: PageEncoding) {
  return reader.withTable('big', async (connection, table) => ({
    total: await measureRows(connection, table, COLUMNS, q.where),
    page: await plainPage(connection, reader.pages, table, q, encoding),
  }));
}

const viewTables = async () =>
  (await files.db.rows<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() WHERE starts_with(table_name, 'view_')`)).length;

/** Asks `orderBy` with two filters, which has the view made, and waits for it. */
async function madeFor(views: SortViews, orderBy: string): Promise<void> {
  expect(views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '1'), orderBy), 'json')).toBeNull();
  expect(views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '2'), orderBy), 'json')).toBeNull();
  await views.made();
}

describe('new filters under a sort asked before', () => {
  const sort = '"grp" DESC NULLS LAST';
  let views: SortViews;
  beforeAll(async () => {
    views = new SortViews(reader);
    await madeFor(views, sort);
  });

  const cases: [string, BoundSql, number, number][] = [
    ['ties broken by position', filter(`"amount" > CAST(? AS DECIMAL(18,6))`, '5000'), 0, 100],
    ['a deeper window', filter(`"amount" < CAST(? AS DECIMAL(18,6))`, '9000'), 950, 100],
    ['few rows pass, far down the view', filter(`"id" < CAST(? AS BIGINT)`, '120'), 10, 50],
    ['a window past the rows that pass', filter(`"id" < CAST(? AS BIGINT)`, '120'), 100, 50],
    ['no row passes', filter(`"id" < CAST(? AS BIGINT)`, '0'), 0, 100],
    ['a page of more rows than one statement writes', filter(`"grp" IS NOT NULL`), 0, 5_000],
  ];
  for (const encoding of ['json', 'csv'] as const) {
    it.each(cases)(`${encoding}: %s`, async (_, where, offset, limit) => {
      const q = query(where, sort, offset, limit);
      const expected = await plain(q, encoding);
      const [total, page] = (await views.page('big', q, encoding))!;
      expect(total).toEqual(expected.total);
      expect(page.rowCount).toBe(expected.page.rowCount);
      expect(page.bytes).toBe(expected.page.bytes);
      expect(text(page.body)).toBe(text(expected.page.body));
    });
  }

  it('gives the same Parquet rows as the plain path', async () => {
    const q = query(filter(`"grp" = CAST(? AS VARCHAR)`, 'a'), sort, 10, 200);
    const [, page] = (await views.page('big', q, 'parquet'))!;
    const expected = await plain(q, 'parquet');
    const rowsOf = async (body: Buffer[]) => {
      const path = join(folder, `check-${Math.random()}.parquet`);
      await writeFile(path, Buffer.concat(body));
      return files.db.rows(`SELECT * FROM read_parquet('${path}')`);
    };
    expect(await rowsOf(page.body)).toEqual(await rowsOf(expected.page.body));
  });

  it('answers the error of a filter DuckDB refused', async () => {
    const refused = query(filter(`"amount" > CAST(? AS DECIMAL(18,6))`, 'many'), sort);
    await expect(views.page('big', refused, 'json')!).rejects.toThrow(/Conversion Error|Could not convert/);
  });
});

describe('the view of a sort', () => {
  it('is not made for a sort asked once, nor read until it is made', async () => {
    const views = new SortViews(reader);
    const before = await viewTables();
    expect(views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '1'), '"id" DESC'), 'json')).toBeNull();
    await views.made();
    expect(await viewTables()).toBe(before);
    expect(views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '2'), '"id" DESC'), 'json')).toBeNull();
    expect(views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '3'), '"id" DESC'), 'json')).toBeNull();
    await views.made();
    expect(await viewTables()).toBe(before + 1);
    const [total] = (await views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '4'), '"id" DESC'), 'json'))!;
    expect(total.rowCount).toBe(ROWS - 5);
    await views.dropAll('big');
    expect(await viewTables()).toBe(before);
  });

  it('is not made for a result larger than its budget', async () => {
    const views = new SortViews(reader);
    const before = await viewTables();
    const large = (threshold: string) => ({ ...query(filter(`"id" > CAST(? AS BIGINT)`, threshold), '"id" ASC'), storedRows: 10_000_000 });
    for (const threshold of ['1', '2', '3']) expect(views.page('big', large(threshold), 'json')).toBeNull();
    await views.made();
    expect(await viewTables()).toBe(before);
  });

  it('counts a filter under any sort once made, as the count over the stored rows does', async () => {
    const views = new SortViews(reader);
    const where = filter(`"grp" = CAST(? AS VARCHAR) OR "amount" IS NULL`, 'c');
    expect(views.count('big', COLUMNS, where)).toBeNull();
    await madeFor(views, '"__row" DESC');
    const expected = await reader.withTable('big', (connection, table) => measureRows(connection, table, COLUMNS, where));
    expect(await views.count('big', COLUMNS, where)).toEqual(expected);
    expect(views.count('other', COLUMNS, where)).toBeNull();
    await views.dropAll('big');
    expect(views.count('big', COLUMNS, where)).toBeNull();
  });

  it('is given back when idle, and made again when the sort is asked again', async () => {
    const views = new SortViews(reader);
    const before = await viewTables();
    await madeFor(views, '"amount" ASC');
    expect(await viewTables()).toBe(before + 1);
    await views.dropIdle(60_000);
    expect(await viewTables()).toBe(before + 1);
    await views.dropIdle(0);
    expect(await viewTables()).toBe(before);
    await madeFor(views, '"amount" ASC');
    expect(await views.page('big', query(filter(`"id" > CAST(? AS BIGINT)`, '3'), '"amount" ASC'), 'json')).toBeTruthy();
    await views.dropAll('big');
    expect(await viewTables()).toBe(before);
  });
});
