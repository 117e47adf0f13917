import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertWindow, pageRowsSql, plainPage, rowPositionName, type PageQuery } from '../../../../main/service/results/page-sql.ts';
import { PageWriter } from '../../../../main/service/results/page-writer.ts';
import type { ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// The plain page path: one SELECT over the stored table, its rows written by DuckDB.

const columns: ResultColumn[] = [
  { name: 'n', type: 'BIGINT' },
  { name: 'label', type: 'VARCHAR' },
];
const query = (options: Partial<PageQuery> = {}): PageQuery => ({
  tableColumns: columns,
  columns,
  limit: 3,
  offset: 0,
  storedRows: 10,
  ...options,
});

let db: Database;
let connection: DuckDBConnection;
let dir: string;
let pages: PageWriter;

beforeAll(async () => {
  db = await Database.open(':memory:', [`CREATE TABLE t AS SELECT range AS n, 'row ' || (range % 4) AS label FROM range(10)`]);
  connection = await db.connect();
  dir = mkdtempSync(join(tmpdir(), 'querydesk-page-sql-'));
  pages = new PageWriter(db, dir);
});
afterAll(async () => {
  db.release(connection);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const rowsOf = async (options: Partial<PageQuery>) => {
  const page = await plainPage(connection, pages, 't', query(options), 'json');
  return JSON.parse(`[${Buffer.concat(page.body).toString()}]`) as { n: number; label: string }[];
};

describe('the SQL of a page', () => {
  it('is a window of rowids for the rows as stored, and a SELECT with the filter, sort and window otherwise', () => {
    expect(pageRowsSql('t', query(), '"__row"')).toBeNull();
    const rows = pageRowsSql(
      't',
      query({ where: { sql: 'n > CAST(? AS BIGINT)', params: ['2'] }, orderBy: '"label" DESC', limit: 5, offset: 10 }),
      '"__row"',
    );
    expect(rows).toEqual({
      sql: 'SELECT *, rowid AS "__row" FROM t WHERE n > CAST(? AS BIGINT) ORDER BY "label" DESC, rowid LIMIT 5 OFFSET 10',
      params: ['2'],
      orderBy: '"label" DESC, "__row"',
      inOrder: false,
      limit: 5,
    });
    expect(pageRowsSql('t', query({ samplePercent: 12.5 }), 'r')?.sql).toBe(
      'SELECT *, rowid AS r FROM t USING SAMPLE 12.500000000000% (bernoulli) LIMIT 3 OFFSET 0',
    );
  });

  it("names each row's position apart from every column of the result", () => {
    expect(rowPositionName(columns)).toBe('"__row"');
    expect(
      rowPositionName([
        { name: '__ROW', type: 'BIGINT' },
        { name: '__row_1', type: 'BIGINT' },
      ]),
    ).toBe('"__row_2"');
  });

  it('refuses a window that is not made of row counts', () => {
    expect(() => assertWindow(query({ limit: 1.5 }))).toThrow('not a row count: 1.5');
    expect(() => assertWindow(query({ offset: -1 }))).toThrow('not a row count: -1');
  });
});

describe('a plain page', () => {
  it('has the rows of its window, filter and sort, ties broken by stored order', async () => {
    expect((await rowsOf({ offset: 8 })).map((row) => row.n)).toEqual([8, 9]);
    expect((await rowsOf({ where: { sql: 'n >= CAST(? AS BIGINT)', params: ['5'] } })).map((row) => row.n)).toEqual([5, 6, 7]);
    expect((await rowsOf({ orderBy: '"label" DESC', limit: 4 })).map((row) => row.n)).toEqual([3, 7, 2, 6]);
    expect(await rowsOf({ offset: 10 })).toEqual([]);
  });

  it("leaves no file behind in the pages' folder", () => {
    expect(readdirSync(dir)).toEqual([]);
  });
});
