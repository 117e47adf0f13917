import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { measureRows } from '../../../../main/service/results/result-writer.ts';
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
