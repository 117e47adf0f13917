import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { plainPage } from '../../../../main/service/results/page-sql.ts';
import { measureRows } from '../../../../main/service/results/result-writer.ts';
import type { ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { SortViews, type SortedFilterQuery } from '../../../../main/service/results/sort-views.ts';
import { storeResult, type StoredResult } from './stored-result.ts';

// New filters under a sort asked before are read from a view of the whole result in that sort,
// made in the background: each page is byte for byte the plain path's, and each total the count's.

const ROWS = 60_000;
let stored: StoredResult;

// ties and nulls in the sort; `__bytes` and `__row` are names the view must not take for its own
beforeAll(async () => {
  stored = await storeResult(ROWS, '__bytes');
});
afterAll(() => stored.close());

const filter = (sql: string, ...params: string[]): BoundSql => ({ sql, params });

function query(where: BoundSql, orderBy: string, offset = 0, limit = 100): SortedFilterQuery {
  return { tableColumns: stored.columns, columns: stored.columns.slice(0, 4), where, orderBy, offset, limit, storedRows: ROWS };
}

const text = (body: Buffer[]) => Buffer.concat(body).toString('latin1');

const viewTables = async () =>
  (await stored.files.db.rows<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() WHERE starts_with(table_name, 'view_')`))
    .length;

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
    views = new SortViews(stored.reader);
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
      const expected = await stored.plain(q, encoding);
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
    const expected = await stored.plain(q, 'parquet');
    expect(await stored.parquetRows(page.body)).toEqual(await stored.parquetRows(expected.page.body));
  });

  it('answers the error of a filter DuckDB refused', async () => {
    const refused = query(filter(`"amount" > CAST(? AS DECIMAL(18,6))`, 'many'), sort);
    await expect(views.page('big', refused, 'json')!).rejects.toThrow(/Conversion Error|Could not convert/);
  });
});

describe("new filters under a sort, on a result of Dune's types", () => {
  // varbinary, uint256 past 2^64, timestamp(3) with time zone, arrays and rows, as the service stores them
  const columns: ResultColumn[] = [
    { name: 'holder', type: 'BLOB' },
    { name: 'amount', type: 'UHUGEINT' },
    { name: 'at', type: 'TIMESTAMP WITH TIME ZONE' },
    { name: 'tags', type: 'VARCHAR[]' },
    { name: 'pair', type: 'STRUCT(a VARCHAR, b BLOB)' },
  ];
  const dune = (where: BoundSql, orderBy: string, offset = 0, limit = 100): SortedFilterQuery => ({
    tableColumns: columns,
    columns,
    where,
    orderBy,
    offset,
    limit,
    storedRows: 20_000,
  });
  beforeAll(async () => {
    const table = await stored.files.create('dune');
    await stored.files.writer.run(
      `CREATE TABLE ${table.sql} AS SELECT CASE WHEN i % 9 = 0 THEN NULL ELSE unhex(md5(i::VARCHAR)) END AS holder, ` +
        `(18446744073709551616::UHUGEINT * (i % 50)::UHUGEINT + (hash(i) % 1000)::UHUGEINT) AS amount, ` +
        `TIMESTAMPTZ '2024-03-01 12:00:00.123+00' + to_seconds(i * 37) AS at, ` +
        `CASE WHEN i % 4 = 0 THEN NULL ELSE ['t' || (i % 3), NULL] END AS tags, {'a': 'x' || i, 'b': unhex('0a' || lpad(hex(i % 256), 2, '0'))} AS pair ` +
        `FROM range(20000) t(i)`,
    );
    await stored.files.written('dune');
  });

  it("gives the plain path's pages and the count's totals", async () => {
    const views = new SortViews(stored.reader);
    const sort = '"amount" DESC, "at"';
    const ask = (n: number) => views.page('dune', dune(filter(`"amount" > CAST(? AS UHUGEINT)`, String(n)), sort), 'json');
    expect(ask(1)).toBeNull();
    expect(ask(2)).toBeNull();
    await views.made();
    const cases: BoundSql[] = [
      filter(`"amount" > CAST(? AS UHUGEINT)`, '700000000000000000000'),
      filter(`"holder" IS NOT NULL AND "at" < CAST(? AS TIMESTAMP WITH TIME ZONE)`, '2024-03-02 00:00:00+00'),
    ];
    for (const where of cases)
      for (const encoding of ['json', 'csv'] as const) {
        const q = dune(where, sort, 30, 200);
        const expected = await stored.reader.withTable('dune', async (connection, table) => ({
          total: await measureRows(connection, table, columns, where),
          page: await plainPage(connection, stored.reader.pages, table, q, encoding),
        }));
        const [total, page] = (await views.page('dune', q, encoding))!;
        expect(total).toEqual(expected.total);
        expect(page.rowCount).toBe(200);
        expect(page.bytes).toBe(expected.page.bytes);
        expect(text(page.body)).toBe(text(expected.page.body));
      }
    await views.dropAll('dune');
  });
});

describe('the view of a sort', () => {
  it('is not made for a sort asked once, nor read until it is made', async () => {
    const views = new SortViews(stored.reader);
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
    const views = new SortViews(stored.reader);
    const before = await viewTables();
    const large = (threshold: string) => ({ ...query(filter(`"id" > CAST(? AS BIGINT)`, threshold), '"id" ASC'), storedRows: 10_000_000 });
    for (const threshold of ['1', '2', '3']) expect(views.page('big', large(threshold), 'json')).toBeNull();
    await views.made();
    expect(await viewTables()).toBe(before);
  });

  it('counts a filter under any sort once made, as the count over the stored rows does', async () => {
    const views = new SortViews(stored.reader);
    const where = filter(`"grp" = CAST(? AS VARCHAR) OR "amount" IS NULL`, 'c');
    expect(views.count('big', stored.columns, where)).toBeNull();
    await madeFor(views, '"__row" DESC');
    const expected = await stored.reader.withTable('big', (connection, table) => measureRows(connection, table, stored.columns, where));
    expect(await views.count('big', stored.columns, where)).toEqual(expected);
    expect(views.count('other', stored.columns, where)).toBeNull();
    await views.dropAll('big');
    expect(views.count('big', stored.columns, where)).toBeNull();
  });

  it('is given back when idle, and made again when the sort is asked again', async () => {
    const views = new SortViews(stored.reader);
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
