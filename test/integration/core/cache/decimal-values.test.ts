import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { startCacheHarness, type CacheHarness } from './cache-harness.ts';

// Decimals as a service may write them: in exponent form (`3.1E-5` of a decimal(18,18)), with more
// digits than a double holds, or with more digits after the point than the column's scale. The
// cache, loading CSV pages, keeps each exactly: never through a double, never rounded to its scale.

const ROWS = 4;
const DECIMALS_SQL = `SELECT
  i AS "id::bigint",
  CASE i WHEN 1 THEN '3.1E-5' WHEN 2 THEN '1.23456789012345678E-1' WHEN 3 THEN '0.5' ELSE '1e-18' END AS "tiny::decimal(18,18)",
  CASE i WHEN 1 THEN '98.80' WHEN 2 THEN '1.5E+2' WHEN 3 THEN '-1.50' ELSE '12345678.910' END AS "price::decimal(10,2)",
  CASE i WHEN 1 THEN '0.125' ELSE '1.5' END AS "fee::decimal(4,2)",
  CASE i WHEN 2 THEN '12.5' ELSE '3.0' END AS "n::decimal(5,0)"
FROM range(1, ${ROWS + 1}) t(i)
ORDER BY i`;

let harness: CacheHarness;
let executionId: string;

beforeAll(async () => {
  harness = await startCacheHarness({}, {}, startDuneShapes);
  executionId = await harness.runSql(DECIMALS_SQL);
});
afterAll(async () => harness?.close());

describe('a decimal', () => {
  it('is read from a JSON page exactly, in exponent form too: past a double as its text', async () => {
    const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: ROWS });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.data.rows.map((row) => row.slice(0, 3))).toEqual([
      [1, 0.000031, 98.8],
      [2, '1.23456789012345678E-1', 150],
      [3, 0.5, -1.5],
      [4, 1e-18, 12345678.91],
    ]);
  });

  it('is cached exactly: exponent text as its digits, never through a double; one past its scale kept as text and counted', async () => {
    expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', rowsLoaded: ROWS, valuesNotFitting: [0, 0, 0, 1, 1] });
    const cached = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: ROWS });
    if (!cached.ok) throw new Error(cached.error.message);
    expect(cached.data.fromCache).toBeDefined();
    expect(cached.data.rows).toEqual([
      [1, 0.000031, 98.8, '0.125', '3.0'],
      [2, '0.123456789012345678', 150, '1.5', '12.5'],
      [3, 0.5, -1.5, '1.5', '3.0'],
      [4, 1e-18, 12345678.91, '1.5', '3.0'],
    ]);
  });
});
