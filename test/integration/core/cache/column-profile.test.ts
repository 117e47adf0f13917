import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue, ColumnProfile } from '../../../../main/contract/index.ts';
import { startCacheHarness, type CacheHarness } from './cache-harness.ts';

// A column's profile from the cache, checked against the same rows read through the grid's channel
// and counted here: nulls, distinct values, range, top values, histogram totals, with and without
// a filter.

let harness: CacheHarness;
let cached: string;
let uncached: string;
const rows: Record<string, CellValue>[] = [];

beforeAll(async () => {
  harness = await startCacheHarness({ maxPageRows: 2500 });
  cached = await harness.run('Demo trades');
  uncached = await harness.run('Demo trades');
  expect(await harness.cacheWhole(cached)).toMatchObject({ state: 'cached' });
  const page = await harness.call('results:getRows', { accountId: 'local', executionId: cached, startRow: 0, endRow: 10_000 });
  if (!page.ok) throw new Error(page.error.message);
  const names = page.data.columns.map((c) => c.name);
  for (const row of page.data.rows) rows.push(Object.fromEntries(names.map((name, i) => [name, row[i]!])));
});
afterAll(async () => harness?.close());

async function profile(column: string, filters?: string): Promise<ColumnProfile> {
  const answer = await harness.call('results:profile', {
    accountId: 'local',
    executionId: cached,
    column,
    ...(filters ? { filters } : {}),
  });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data;
}

/** The most frequent values, most frequent first, ties in the order DuckDB sorts the values. */
function topOf(values: CellValue[], compare: (a: CellValue, b: CellValue) => number): { value: CellValue; count: number }[] {
  const counts = new Map<CellValue, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || compare(a.value, b.value))
    .slice(0, 10);
}
const byText = (a: CellValue, b: CellValue) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
const sum = (counts: { count: number }[]) => counts.reduce((total, bin) => total + bin.count, 0);

describe('a column profile from the cache', () => {
  it('counts the nulls, distinct and most frequent values of a text column', async () => {
    const routes = rows.map((r) => r.route!);
    const route = await profile('route');
    expect(route).toMatchObject({ column: 'route', kind: 'text', rowCount: rows.length, histogram: [], quartiles: null, mean: null });
    expect(route.nullCount).toBe(routes.filter((v) => v === null).length);
    expect(route.nullCount).toBeGreaterThan(0);
    expect(route.distinct).toEqual({ count: new Set(routes.filter((v) => v !== null)).size, exact: true });
    expect(route.top).toEqual(topOf(routes, byText));
    const present = routes.filter((v): v is string => v !== null).sort();
    expect([route.min, route.max]).toEqual([present[0], present.at(-1)]);
  });

  it('gives a number column its range, mean, quartiles and a histogram over every value', async () => {
    const values = rows.map((r) => Number(r.amount_usd));
    const amount = await profile('amount_usd');
    expect(amount.kind).toBe('number');
    expect(amount.min).toBe(Math.min(...values));
    expect(amount.max).toBe(Math.max(...values));
    expect(amount.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 6);
    const sorted = [...values].sort((a, b) => a - b);
    const [q1, median, q3] = amount.quartiles!.values.map(Number);
    expect(amount.quartiles!.exact).toBe(true);
    expect(median).toBeCloseTo((sorted[2499]! + sorted[2500]!) / 2, 6);
    expect(q1).toBeCloseTo(sorted[1249]! + 0.75 * (sorted[1250]! - sorted[1249]!), 6);
    expect(q3).toBeGreaterThan(median!);
    expect(amount.histogram).toHaveLength(20);
    expect(sum(amount.histogram)).toBe(values.length);
    expect(amount.histogram[0]!.from).toBe(amount.min);
    expect(amount.histogram.at(-1)!.to).toBe(amount.max);
    const firstBin = amount.histogram[0]!;
    expect(firstBin.count).toBe(values.filter((v) => v < firstBin.to).length);
  });

  it('counts the most frequent values of a boolean, and of a number with under 100,000 distinct values', async () => {
    const byNumber = (a: CellValue, b: CellValue) => Number(a) - Number(b);
    const buys = await profile('is_buy');
    expect(buys.top).toEqual(
      topOf(
        rows.map((r) => r.is_buy!),
        byNumber,
      ),
    );
    expect(buys.top).toHaveLength(2);
    const amounts = await profile('amount_usd');
    expect(amounts.top).toEqual(
      topOf(
        rows.map((r) => r.amount_usd!),
        byNumber,
      ),
    );
  });

  it('keeps exact values exact: a DECIMAL and integers past 2^53 as the grid shows them', async () => {
    const raw = await profile('raw_amount');
    const texts = rows.map((r) => BigInt(String(r.raw_amount)));
    const sorted = [...texts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(String(raw.min)).toBe(String(sorted[0]));
    expect(String(raw.max)).toBe(String(sorted.at(-1)));
    expect(raw.distinct).toEqual({ count: new Set(texts).size, exact: true });
  });

  it('gives a time column its range, quartiles and histogram in epoch milliseconds', async () => {
    const times = rows.map((r) => String(r.block_time)).sort();
    const time = await profile('block_time');
    expect(time).toMatchObject({ kind: 'time', min: times[0], max: times.at(-1), mean: null });
    expect(time.quartiles).toEqual({ values: [times[1249], times[2499], times[3749]], exact: true });
    expect(sum(time.histogram)).toBe(times.length);
    expect(time.histogram[0]!.from).toBe(Date.parse(times[0]!.replace(' UTC', 'Z').replace(' ', 'T')));
  });

  it('describes only the rows the filters let through', async () => {
    const base = rows.filter((r) => r.chain === 'base' && Number(r.amount_usd) > 1000);
    const chain = await profile('chain', "chain = 'base' AND amount_usd > 1000");
    expect(chain).toMatchObject({
      rowCount: base.length,
      nullCount: 0,
      distinct: { count: 1, exact: true },
      top: [{ value: 'base', count: base.length }],
    });
    const trader = await profile('trader', "chain = 'base' AND amount_usd > 1000");
    expect(trader.distinct.count).toBe(new Set(base.map((r) => r.trader)).size);
  });

  it("profiles a result the cache does not hold on the service's sample, and says so", async () => {
    const sampled = async (column: string) => {
      const answer = await harness.call('results:profile', { accountId: 'local', executionId: uncached, column });
      if (!answer.ok) throw new Error(answer.error.message);
      expect(answer.data.fromCache).toBeUndefined();
      expect(answer.data.sampled).toMatchObject({ of: rows.length, rows: answer.data.rowCount });
      expect(answer.data.rowCount).toBeGreaterThan(0);
      return answer.data;
    };
    const chain = await sampled('chain');
    expect(chain.distinct.count).toBeLessThanOrEqual(5);
    expect(sum(chain.top)).toBe(chain.rowCount - chain.nullCount);
    const amounts = rows.map((r) => Number(r.amount_usd));
    const amount = await sampled('amount_usd');
    expect(amount.kind).toBe('number');
    expect(Number(amount.min)).toBeGreaterThanOrEqual(Math.min(...amounts));
    expect(Number(amount.max)).toBeLessThanOrEqual(Math.max(...amounts));
    expect(sum(amount.histogram)).toBe(amount.rowCount - amount.nullCount);
    const times = rows.map((r) => String(r.block_time)).sort();
    const time = await sampled('block_time');
    expect(time.kind).toBe('time');
    expect(times).toContain(time.min);
    expect(times).toContain(time.max);
    const route = await sampled('route');
    expect(route.nullCount).toBeGreaterThan(0);

    const filtered = await harness.call('results:profile', {
      accountId: 'local',
      executionId: uncached,
      column: 'chain',
      filters: "chain = 'base'",
    });
    expect(filtered).toMatchObject({ ok: false, error: { code: 'bad_request', details: { wholeResultOnly: true } } });
  });

  it('refuses an unknown column or a bad filter with its place', async () => {
    const unknown = await harness.call('results:profile', { accountId: 'local', executionId: cached, column: 'nope' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad_request', details: { part: 'columns' } } });
    const filter = await harness.call('results:profile', {
      accountId: 'local',
      executionId: cached,
      column: 'chain',
      filters: "amount_usd > 'x'",
    });
    expect(filter).toMatchObject({ ok: false, error: { code: 'bad_request', details: { part: 'filters', position: 14 } } });
  });
});
