import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { startCacheHarness, withoutSource, type CacheHarness } from './cache-harness.ts';

// Values whose text a cache could change on the way: timestamps finer than milliseconds (and of
// none). A Dune-shaped result, cached, reads back as Dune's JSON pages gave it: in the grid, a
// profile and a pivot.

const ROWS = 8;
const FINE_SQL = `SELECT
  i AS "id::bigint",
  strftime(TIMESTAMP '2024-01-01 00:08:37' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S') || '.123456 UTC' AS "t6::timestamp(6)",
  strftime(TIMESTAMP '2024-01-01 00:08:37' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S') || '.123456789 UTC' AS "t9::timestamp(9)",
  strftime(TIMESTAMP '2024-01-01 00:08:37' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S') || '.000007 UTC' AS "z6::timestamp(6) with time zone",
  strftime(TIMESTAMP '2024-01-01 00:08:37' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S') || ' UTC' AS "t0::timestamp(0)"
FROM range(1, ${ROWS + 1}) t(i)
ORDER BY i`;

let harness: CacheHarness;
let executionId: string;
let fromPages: unknown;

beforeAll(async () => {
  harness = await startCacheHarness({}, {}, startDuneShapes);
  executionId = await harness.runSql(FINE_SQL);
  fromPages = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: ROWS });
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', rowsLoaded: ROWS });
});
afterAll(async () => harness?.close());

describe('fine values in the cache', () => {
  it("read back as Dune's JSON pages gave them: every digit of a timestamp", async () => {
    const cached = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: ROWS });
    if (!cached.ok) throw new Error(cached.error.message);
    expect(cached.data.fromCache).toBeDefined();
    expect(withoutSource(cached)).toEqual(fromPages);
    expect(cached.data.rows.slice(0, 4)).toEqual([
      [
        1,
        '2024-01-01 00:09:37.123456 UTC',
        '2024-01-01 00:09:37.123456789 UTC',
        '2024-01-01 00:09:37.000007 UTC',
        '2024-01-01 00:09:37 UTC',
      ],
      [
        2,
        '2024-01-01 00:10:37.123456 UTC',
        '2024-01-01 00:10:37.123456789 UTC',
        '2024-01-01 00:10:37.000007 UTC',
        '2024-01-01 00:10:37 UTC',
      ],
      [
        3,
        '2024-01-01 00:11:37.123456 UTC',
        '2024-01-01 00:11:37.123456789 UTC',
        '2024-01-01 00:11:37.000007 UTC',
        '2024-01-01 00:11:37 UTC',
      ],
      [
        4,
        '2024-01-01 00:12:37.123456 UTC',
        '2024-01-01 00:12:37.123456789 UTC',
        '2024-01-01 00:12:37.000007 UTC',
        '2024-01-01 00:12:37 UTC',
      ],
    ]);
  });

  it('are profiled and pivoted with the same text', async () => {
    const profile = await harness.call('results:profile', { accountId: 'local', executionId, column: 't9' });
    if (!profile.ok) throw new Error(profile.error.message);
    expect(profile.data).toMatchObject({ min: '2024-01-01 00:09:37.123456789 UTC', max: '2024-01-01 00:16:37.123456789 UTC' });
    const pivot = await harness.call('results:pivot', {
      accountId: 'local',
      executionId,
      rows: [{ column: 't6' }],
      measures: [{ fn: 'max', column: 'z6' }],
      sort: { measure: 0, direction: 'asc' },
    });
    if (!pivot.ok) throw new Error(pivot.error.message);
    expect(pivot.data.groups[1]).toMatchObject({ key: ['2024-01-01 00:09:37.123456 UTC'], cells: [['2024-01-01 00:09:37.000007 UTC']] });
  });
});
