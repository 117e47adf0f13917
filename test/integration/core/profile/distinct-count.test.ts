import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeColumn } from '../../../../main/core/profile/column-profile.ts';
import type { Query } from '../../../../main/core/profile/profile-query.ts';

// A profile's distinct count and quartiles on DuckDB, over columns whose answers are known: exact
// up to a million values, past that an estimate within the margin it states, never above the rows.

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  // 3,000,000 rows: `spread` has 2,500,000 distinct values, `few` 1,000, `ids` every row its own
  await connection.run(`CREATE TABLE big AS SELECT i AS ids, i % 2500000 AS spread, i % 1000 AS few FROM range(3000000) AS t(i)`);
  await connection.run(
    `CREATE TABLE million AS SELECT i * 7 AS v, CASE WHEN i % 4 = 0 THEN NULL ELSE i END AS gaps FROM range(1000000) AS t(i)`,
  );
  await connection.run(`CREATE TABLE small AS SELECT i AS v FROM range(1, 11) AS t(i)`);
});
afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
});

const profileOf = (table: string, column: string, type = 'BIGINT') => {
  const query: Query = (sql) =>
    connection.runAndReadAll(`WITH src AS (SELECT ${column} AS v FROM ${table}) ${sql}`).then((reader) => reader.getRows());
  return describeColumn(query, { name: column, type }, type.toLowerCase());
};

describe("a profile's distinct count", () => {
  it('is exact for a million values, each its own', async () => {
    expect((await profileOf('million', 'v')).distinct).toEqual({ count: 1_000_000, exact: true });
    expect((await profileOf('million', 'gaps')).distinct).toEqual({ count: 750_000, exact: true });
  });

  it('is estimated past a million values within the margin it states, and never above the rows', async () => {
    for (const [column, truth] of [
      ['spread', 2_500_000],
      ['ids', 3_000_000],
    ] as const) {
      const { distinct, rowCount } = await profileOf('big', column);
      expect(distinct.exact).toBe(false);
      expect(distinct.error).toBeGreaterThan(0);
      expect(distinct.error).toBeLessThan(0.02);
      expect(Math.abs(distinct.count / truth - 1)).toBeLessThanOrEqual(distinct.error!);
      expect(distinct.count).toBeLessThanOrEqual(rowCount);
    }
  });

  it('counts few values among many rows exactly, with the most frequent ones', async () => {
    const few = await profileOf('big', 'few');
    expect(few.distinct).toEqual({ count: 1000, exact: true });
    expect(few.top).toHaveLength(10);
  });
});

describe("a whole number column's quartiles", () => {
  it('are values of the column, exactly', async () => {
    expect((await profileOf('small', 'v')).quartiles).toEqual({ values: [3, 5, 8], exact: true });
    const { quartiles } = await profileOf('(SELECT * FROM million LIMIT 50000)', 'v');
    expect(quartiles!.exact).toBe(true);
    quartiles!.values.forEach((value, i) => {
      expect(Number(value) % 7).toBe(0);
      expect(Math.abs(Number(value) - (50_000 * 7 * (i + 1)) / 4)).toBeLessThanOrEqual(7);
    });
  });

  it('are whole when estimated', async () => {
    const { quartiles } = await profileOf('big', 'ids');
    expect(quartiles!.exact).toBe(false);
    for (const value of quartiles!.values) expect(Number.isInteger(value)).toBe(true);
    expect(Math.abs(Number(quartiles!.values[1]) / 1_500_000 - 1)).toBeLessThan(0.01);
  });
});
