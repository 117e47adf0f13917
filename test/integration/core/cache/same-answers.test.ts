import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRequest } from '../../../../main/contract/index.ts';
import { startCacheHarness, withoutSource, type CacheHarness } from './cache-harness.ts';

// The same grid requests answered by the service (before the result is cached) and by the cache
// (after): equal pages, equal totals, equal refusals. The demo trades hold integers, a timestamp,
// text, decimals, doubles, booleans, nulls and integers beyond 2^53.

const REQUESTS: Omit<ChannelRequest<'results:getRows'>, 'accountId' | 'executionId'>[] = [
  { startRow: 0, endRow: 50 },
  { startRow: 4_990, endRow: 5_100 },
  { startRow: 100, endRow: 160, sortBy: 'amount_usd desc' },
  { startRow: 0, endRow: 80, sortBy: 'chain, block_time desc', filters: "chain = 'base' AND amount_usd > 1000" },
  { startRow: 20, endRow: 70, filters: 'route IS NULL', columns: 'trade_id,route' },
  { startRow: 0, endRow: 100, filters: "(token IN ('WETH', 'DAI') OR amount < 5) AND is_buy = 'true'", sortBy: 'raw_amount' },
  { startRow: 0, endRow: 100, filters: "block_time >= '2024-01-10 00:00:00' AND block_time < '2024-01-12'" },
  { startRow: 0, endRow: 40, filters: "trader LIKE '0xab%'", sortBy: 'trader desc' },
  { startRow: 300, endRow: 400, columns: 'token,trade_id,amount', sortBy: 'token desc, amount' },
  { startRow: 0, endRow: 60, sortBy: 'route', columns: 'route,trade_id' },
  { startRow: 0, endRow: 10, filters: "chain = 'nowhere'" },
];

const REFUSED: {
  request: Omit<ChannelRequest<'results:getRows'>, 'accountId' | 'executionId' | 'startRow' | 'endRow'>;
  details?: unknown;
}[] = [
  { request: { filters: "chain = 'base' AND" }, details: { part: 'filters', position: 19 } },
  { request: { filters: 'nope = 1' }, details: { part: 'filters', position: 1 } },
  { request: { sortBy: 'amount_usd sideways' }, details: { part: 'sort_by', position: 12 } },
  { request: { columns: 'trade_id,missing' }, details: { part: 'columns', position: 10 } },
  { request: { filters: "chain NOT IN ('base')" }, details: { part: 'filters', position: 7 } },
  { request: { filters: "trade_id = 'abc'" }, details: { part: 'filters', position: 12 } },
];

let harness: CacheHarness;
let executionId: string;
const fromService: unknown[] = [];
const refusedByService: unknown[] = [];

beforeAll(async () => {
  // a small page cap makes both the grid reads and the download span several pages
  harness = await startCacheHarness({ maxPageRows: 700 });
  executionId = await harness.run('Demo trades');
  for (const request of REQUESTS) fromService.push(await harness.call('results:getRows', { accountId: 'local', executionId, ...request }));
  for (const { request } of REFUSED) {
    refusedByService.push(await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 10, ...request }));
  }
  const cached = await harness.cacheWhole(executionId);
  expect(cached).toMatchObject({ state: 'cached', rowsLoaded: 5000, totalRowCount: 5000 });
});

afterAll(async () => harness?.close());

describe('the cache answers as the service does', () => {
  it('gives the same pages, totals and cells for filters, sorts and columns', async () => {
    for (const [index, request] of REQUESTS.entries()) {
      const cached = await harness.call('results:getRows', { accountId: 'local', executionId, ...request });
      expect(cached.ok && cached.data.fromCache?.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(fromService[index], JSON.stringify(request)).toMatchObject({ ok: true });
      expect(withoutSource(cached), JSON.stringify(request)).toEqual(fromService[index]);
    }
  });

  it('refuses the same mistakes, with the part and position', async () => {
    for (const [index, { request, details }] of REFUSED.entries()) {
      const cached = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 10, ...request });
      expect(cached, JSON.stringify(request)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      expect(refusedByService[index], JSON.stringify(request)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      if (details) {
        expect(cached.ok ? null : cached.error.details).toEqual(details);
        expect((refusedByService[index] as { error: { details: unknown } }).error.details).toEqual(details);
      }
    }
  });

  it('samples from the cache with DuckDB, and from the service when not cached', async () => {
    const sample = await harness.call('results:sample', { accountId: 'local', executionId, sampleCount: 40, columns: 'trade_id,chain' });
    expect(sample).toMatchObject({
      ok: true,
      data: { totalRowCount: 5000, columns: [{ name: 'trade_id', type: 'bigint' }, { name: 'chain' }] },
    });
    const rows = sample.ok ? sample.data.rows : [];
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r[0])).size).toBe(40);

    const other = await harness.run('Demo trades');
    const served = await harness.call('results:sample', { accountId: 'local', executionId: other, sampleCount: 400, columns: 'trade_id' });
    expect(served).toMatchObject({ ok: true, data: { totalRowCount: 5000, columns: [{ name: 'trade_id' }] } });
    expect(served.ok && served.data.fromCache).toBeUndefined();
    expect(served.ok && served.data.rows.length).toBeGreaterThan(200);
  });

  it('samples the filtered view from the cache; the service samples only the whole result', async () => {
    const filters = "chain = 'base' AND trade_id > 100";
    const whole = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 1, filters });
    const passing = whole.ok ? whole.data.totalRowCount : -1;
    expect(passing).toBeGreaterThan(50);
    expect(passing).toBeLessThan(5000);
    const sample = await harness.call('results:sample', {
      accountId: 'local',
      executionId,
      sampleCount: 50,
      columns: 'trade_id,chain',
      filters,
    });
    expect(sample).toMatchObject({ ok: true, data: { totalRowCount: passing } });
    const rows = sample.ok ? sample.data.rows : [];
    expect(rows).toHaveLength(50);
    expect(rows.every(([id, chain]) => chain === 'base' && Number(id) > 100)).toBe(true);
    const all = await harness.call('results:sample', { accountId: 'local', executionId, sampleCount: 5000, filters });
    expect(all.ok && all.data.rows.length).toBe(passing);

    const other = await harness.run('Demo trades');
    const refused = await harness.call('results:sample', { accountId: 'local', executionId: other, sampleCount: 50, filters });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request', details: { wholeResultOnly: true } } });
    const typo = await harness.call('results:sample', { accountId: 'local', executionId, sampleCount: 50, filters: 'nope = 1' });
    expect(typo).toMatchObject({ ok: false, error: { code: 'bad_request', details: { part: 'filters', position: 1 } } });
  });

  it('reports the entry: cached, when it was fetched, when it expires', async () => {
    const status = await harness.call('results:cacheStatus', { accountId: 'local', executionId });
    expect(status).toMatchObject({
      ok: true,
      data: { state: 'cached', rowsLoaded: 5000, isPartial: false, budgetBytes: 2 * 1024 ** 3, error: null },
    });
    expect(status.ok && Date.parse(status.data.expiresAt ?? '')).toBeGreaterThan(Date.now());
    const progress = harness.events
      .filter((e) => e.event === 'results:cacheStatus')
      .map((e) => (e.payload as { rowsLoaded: number }).rowsLoaded);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});
