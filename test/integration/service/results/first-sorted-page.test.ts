import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { firstSortedPage, partsFor } from '../../../../main/service/results/first-sorted-page.ts';
import type { PageQuery } from '../../../../main/service/results/page-sql.ts';
import { storeResult, type StoredResult } from './stored-result.ts';

// The first sorted page of a new filter, read with its count in one pass over parts of the rows, is
// byte for byte the plain path's page, and its total the count's, however the rows split into parts.

const ROWS = 250_000;
let stored: StoredResult;

// ties on `grp` cross the parts; `__passed` and `__row` are names the read must not take for its own
beforeAll(async () => {
  stored = await storeResult(ROWS, '__passed');
});
afterAll(() => stored.close());

function query(where: BoundSql, orderBy: string, offset: number, limit: number, storedRows = ROWS): PageQuery & { where: BoundSql } {
  return { tableColumns: stored.columns, columns: stored.columns.slice(0, 4), where, orderBy, offset, limit, storedRows };
}

const text = (body: Buffer[]) => Buffer.concat(body).toString('latin1');

const leftTables = async () =>
  (await stored.files.db.rows<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() WHERE starts_with(table_name, 'first_')`))
    .length;

describe('the first sorted page of a new filter', () => {
  const cases: [string, BoundSql, string, number, number][] = [
    ['ties broken by position across parts', { sql: `"grp" = CAST(? AS VARCHAR)`, params: ['b'] }, '"grp" DESC', 0, 100],
    ['nulls last, a deeper window', { sql: `"amount" > CAST(? AS DECIMAL(18,6))`, params: ['5000'] }, '"__row" ASC NULLS LAST', 950, 100],
    ['a window past the rows that pass', { sql: `"id" < CAST(? AS BIGINT)`, params: ['120'] }, '"amount" DESC', 100, 50],
    ['no row passes', { sql: `"id" < CAST(? AS BIGINT)`, params: ['0'] }, '"amount" DESC', 0, 100],
  ];
  for (const encoding of ['json', 'csv', 'parquet'] as const) {
    it.each(cases)(`${encoding}: %s, in parts and in one`, async (_, where, orderBy, offset, limit) => {
      const expected = await stored.plain(query(where, orderBy, offset, limit), encoding);
      for (const storedRows of [ROWS, 1]) {
        const [total, page] = await firstSortedPage(stored.reader, 'big', query(where, orderBy, offset, limit, storedRows), encoding);
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
    const [, page] = await firstSortedPage(stored.reader, 'big', q, 'parquet');
    const expected = await stored.plain(q, 'parquet');
    expect(await stored.parquetRows(page.body)).toEqual(await stored.parquetRows(expected.page.body));
  });

  it('splits a large result into parts only when nothing else is read', () => {
    expect(partsFor(ROWS, 0)).toBe(Math.min(2, availableParallelism()));
    expect(partsFor(ROWS, 1)).toBe(1);
    expect(partsFor(1_000, 0)).toBe(1);
  });

  it('answers the error of a filter DuckDB refused, leaving no table behind', async () => {
    const refused = query({ sql: `"amount" > CAST(? AS DECIMAL(18,6))`, params: ['many'] }, '"amount" DESC', 0, 100);
    await expect(firstSortedPage(stored.reader, 'big', refused, 'json')).rejects.toThrow(/Conversion Error|Could not convert/);
    expect(await leftTables()).toBe(0);
  });
});
