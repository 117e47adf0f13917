import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UINT256_MAX } from '../../../dune-shapes/dune-result-sql.ts';
import { startDuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { readPagesThenCache, startCacheHarness, type CacheHarness } from './cache-harness.ts';

// Nested values as Dune writes them, spaced out in its CSV, with numbers a double would rewrite
// (the sign of a zero, a decimal's scale, an exponent, digits past a double): a cell of one reads
// the same from a JSON page and from the cache, which loads CSV pages, each number as written.

const ROWS = 3;
const NESTED_SQL = `SELECT
  i AS "id::bigint",
  CASE i WHEN 1 THEN '[-0.0, 0.1]' WHEN 2 THEN '[1.0E-5, 2.0, 1.5e+300]' END AS "xs::array(double)",
  CASE i WHEN 1 THEN '[98.80]' WHEN 2 THEN '[0.00, -1.50]' ELSE '[]' END AS "ds::array(decimal(10,2))",
  '{"p": 1.50, "raw": ${UINT256_MAX}, "name": "a  b, c"}' AS "token::row(p decimal(10,2), raw uint256, name varchar)",
  '[{"v": -0.0}, {"v": 12345678901234567.8}]' AS "legs::array(row(v double))",
  '{"a": 0.10}' AS "m::map(varchar, double)"
FROM range(1, ${ROWS + 1}) t(i)
ORDER BY i`;

let harness: CacheHarness;
let executionId: string;
let read: Awaited<ReturnType<typeof readPagesThenCache>>;

beforeAll(async () => {
  harness = await startCacheHarness({}, {}, startDuneShapes);
  executionId = await harness.runSql(NESTED_SQL);
  read = await readPagesThenCache(harness, executionId, ROWS);
});
afterAll(async () => harness?.close());

describe('a nested value', () => {
  it('reads the same from JSON pages and from the cache of CSV pages, every number as Dune wrote it', () => {
    expect(read.fromCache).toEqual(read.fromPages);
    const token = `{"p":1.50,"raw":${UINT256_MAX},"name":"a  b, c"}`;
    const legs = '[{"v":-0.0},{"v":12345678901234567.8}]';
    expect(read.rows).toEqual([
      [1, '[-0.0,0.1]', '[98.80]', token, legs, '{"a":0.10}'],
      [2, '[1.0E-5,2.0,1.5e+300]', '[0.00,-1.50]', token, legs, '{"a":0.10}'],
      [3, null, '[]', token, legs, '{"a":0.10}'],
    ]);
  });

  it('is profiled with the same text', async () => {
    const profile = await harness.call('results:profile', { accountId: 'local', executionId, column: 'ds' });
    if (!profile.ok) throw new Error(profile.error.message);
    expect(JSON.stringify(profile.data)).toContain('[0.00,-1.50]');
  });
});
