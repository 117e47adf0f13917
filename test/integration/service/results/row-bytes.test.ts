import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowBytesSql, totalBytesSql } from '../../../../main/service/results/row-bytes.ts';
import { openTypedRows, type TypedRows } from './typed-rows.ts';

// A filter's total bytes are counted column by column (totalBytesSql), its pages' bytes row by row
// (rowBytesSql): the two must agree, so that the bytes of all pages add up to the total, for every
// type the service stores, nulls included.

let rows: TypedRows;
beforeAll(async () => {
  rows = await openTypedRows();
});
afterAll(() => rows.close());

describe("a filter's total bytes", () => {
  it("are the sum of its rows' bytes, for every type, with and without nulls, and none for no rows", async () => {
    const { connection, columns } = rows;
    for (const where of ['true', 'tiny < 10', 'text IS NULL', 'false']) {
      const [[byRow, byColumn]] = (
        await connection.runAndReadAll(
          `SELECT coalesce(sum(${rowBytesSql(columns)}), 0)::BIGINT, (${totalBytesSql(columns)})::BIGINT FROM t WHERE ${where}`,
        )
      ).getRows() as [[bigint, bigint]];
      expect(byColumn).toBe(byRow);
      if (where !== 'false') expect(byRow).toBeGreaterThan(0n);
    }
  });
});
