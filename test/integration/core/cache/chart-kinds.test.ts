import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail, type CellValue, type ChannelRequest } from '../../../../main/contract/index.ts';
import { expectWellSaid } from '../../words/read-words.ts';
import { startCacheHarness, type CacheHarness } from './cache-harness.ts';

// Each kind of chart computed by DuckDB on a real cached result: a scatter's points (a uniform
// sample past 10,000), a bar's or pie's top N categories and "Other", a line's time buckets chosen
// from the range of x. The rows are made so that every expected figure can be computed here.

const ROWS = 30_000;
const WALLETS = 2_000;
// each column spans a range that fits a few hundred buckets of exactly one unit
const SPANS: [column: string, millisecondsPerRow: number, unit: string][] = [
  ['t_minute', 240, 'minute'], // 2 hours
  ['t_hour', 28_800, 'hour'], // 10 days
  ['t_day', 576_000, 'day'], // 200 days
  ['t_week', 3_154_000, 'week'], // 3 years
  ['t_month', 21_038_000, 'month'], // 20 years
];
const SQL = `SELECT i, 2 * i + 1 AS y, 'w' || (i % ${WALLETS}) AS wallet, (i * 7919) % 1000 AS amount, i % 3 AS side,
  ${SPANS.map(([column, ms]) => `TIMESTAMP '2024-01-01' + to_milliseconds(i * ${ms}) AS ${column}`).join(', ')}
FROM range(${ROWS}) AS t(i)`;

const amountOf = (i: number) => (i * 7919) % 1000;

let harness: CacheHarness;
let executionId: string;

beforeAll(async () => {
  harness = await startCacheHarness();
  executionId = await harness.runSql(SQL);
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', totalRowCount: ROWS });
}, 60_000);
afterAll(async () => harness?.close());

type Chart = Omit<ChannelRequest<'results:chart'>, 'accountId' | 'executionId'>;

async function chart(request: Chart) {
  const answer = await harness.call('results:chart', { accountId: 'local', executionId, ...request });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data;
}

const sumAt = (rows: CellValue[][], at: number) => rows.reduce((sum, row) => sum + Number(row[at]), 0);

describe('scatter', () => {
  it('plots a uniform sample of 10,000 rows as they are when there are more, and says of how many', async () => {
    const data = await chart({ kind: 'scatter', x: 'i', y: ['y'], aggregation: 'sum' });
    expect(data.sample).toEqual({ shown: 10_000, total: ROWS });
    expect(data.aggregation).toBeNull();
    expect(data.rows).toHaveLength(10_000);
    const xs = data.rows.map((row) => Number(row[0]));
    // raw rows, each once, ordered by x
    expect(data.rows.every(([x, , y]) => y === 2 * Number(x) + 1)).toBe(true);
    expect(new Set(xs).size).toBe(10_000);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    // drawn over the whole range, not its first rows: the mean of a uniform sample is near the middle
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeGreaterThan(ROWS * 0.45);
    expect(mean).toBeLessThan(ROWS * 0.55);
    expect(xs.filter((x) => x >= ROWS * 0.9).length).toBeGreaterThan(500);
  });

  it('plots every row of a filtered result under the bound, unsampled', async () => {
    const data = await chart({ kind: 'scatter', x: 't_day', y: ['y', 'amount'], aggregation: 'sum', filters: 'i < 5000' });
    expect(data.sample).toBeNull();
    expect(data.rows).toHaveLength(5000);
    expect(data.rows[1]).toEqual(['2024-01-01 00:09:36.000 UTC', null, 3, amountOf(1)]);
  });

  it('refuses text on x and a missing y, saying why', async () => {
    const text = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'scatter',
      x: 'wallet',
      y: ['y'],
      aggregation: 'sum',
    });
    expect(text).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('“wallet” is VARCHAR') } });
    const noY = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'scatter',
      x: 'i',
      y: [],
      aggregation: 'count',
    });
    expect(noY).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringContaining('at least one number column') },
    });
    const summedText = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'bar',
      x: 'i',
      y: ['wallet'],
      aggregation: 'avg',
    });
    for (const refused of [text, noY, summedText])
      expectWellSaid(refused.ok ? fail('internal', 'expected a refusal').error : refused.error);
  });
});

describe('bar and pie', () => {
  const byWallet = new Map<string, number>();
  for (let i = 0; i < ROWS; i++) byWallet.set(`w${i % WALLETS}`, (byWallet.get(`w${i % WALLETS}`) ?? 0) + amountOf(i));
  const total = [...byWallet.values()].reduce((a, b) => a + b, 0);
  const largest = [...byWallet.values()].sort((a, b) => b - a);

  it('shows the N largest categories by the measure and one Other that makes up the total', async () => {
    const data = await chart({ kind: 'bar', x: 'wallet', y: ['amount'], aggregation: 'sum', topN: 12 });
    expect(data.rows).toHaveLength(12);
    expect(data.rows.map((row) => row[2])).toEqual(largest.slice(0, 12));
    expect(data.rows.every(([wallet, , sum]) => byWallet.get(String(wallet)) === sum)).toBe(true);
    expect(data.other).toEqual({ categories: WALLETS - 12, rows: [[null, null, total - sumAt(data.rows, 2)]] });
    expect(sumAt(data.rows, 2) + sumAt(data.other!.rows, 2)).toBe(total);
  });

  it('counts rows per category, 8 slices for a pie unless asked, groups ignored', async () => {
    const data = await chart({ kind: 'pie', x: 'wallet', y: [], groupBy: 'side', aggregation: 'count' });
    expect(data.rows).toHaveLength(8);
    expect(data.groupBy).toBeNull();
    expect(data.other?.categories).toBe(WALLETS - 8);
    expect(sumAt(data.rows, 2) + sumAt(data.other!.rows, 2)).toBe(ROWS);
  });

  it('splits the top N and Other by group, still adding up to the total', async () => {
    const data = await chart({ kind: 'bar', x: 'wallet', y: ['amount'], groupBy: 'side', aggregation: 'sum', topN: 5 });
    expect(new Set(data.rows.map((row) => row[0])).size).toBe(5);
    expect(data.other!.rows.map((row) => row[1])).toEqual([0, 1, 2]);
    expect(sumAt(data.rows, 2) + sumAt(data.other!.rows, 2)).toBe(total);
  });

  it('has no Other when every category fits', async () => {
    const data = await chart({ kind: 'bar', x: 'side', y: ['amount'], aggregation: 'max' });
    expect(data.rows.map((row) => row[0])).toHaveLength(3);
    expect(data.other).toBeNull();
  });
});

describe('line and area over time', () => {
  it.each(SPANS)('bucket %s by %s-long steps: %s', async (column, _ms, unit) => {
    const data = await chart({ kind: 'area', x: column, y: [], aggregation: 'count' });
    expect(data.bucket).toBe(unit);
    expect(data.rows.length).toBeGreaterThan(100);
    expect(data.rows.length).toBeLessThanOrEqual(301);
    expect(sumAt(data.rows, 2)).toBe(ROWS);
  });

  it('bucket by the range left after the filters', async () => {
    const data = await chart({ kind: 'line', x: 't_month', y: ['amount'], aggregation: 'avg', filters: 'i < 100' });
    expect(data.bucket).toBe('day');
  });
});

describe('validation', () => {
  it('refuses a chart request whose kind or N is out of range, naming the field', async () => {
    const bad = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'bar',
      x: 'wallet',
      y: [],
      aggregation: 'count',
      topN: 0,
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request', details: [{ field: 'topN' }] } });
    const donut = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'donut' as 'pie',
      x: 'wallet',
      y: [],
      aggregation: 'count',
    });
    expect(donut).toMatchObject({ ok: false, error: { code: 'invalid_request', details: [{ field: 'kind' }] } });
  });

  it('keeps a result view with valid chart settings and refuses one with wrong ones, keeping the last', async () => {
    const chart = { kind: 'bar', x: 'wallet', y: ['amount'], groupBy: null, aggregation: 'sum', topN: 12 };
    expect(await harness.call('ui:set', { accountId: 'local', key: 'view:7', value: { hidden: [], chart } })).toEqual({
      ok: true,
      data: {},
    });
    const wrong = await harness.call('ui:set', {
      accountId: 'local',
      key: 'view:7',
      value: { hidden: [], chart: { ...chart, topN: 500 } },
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_request', details: [{ field: 'value.chart.topN' }] } });
    expect(await harness.call('ui:get', { accountId: 'local', key: 'view:7' })).toEqual({
      ok: true,
      data: { value: { hidden: [], chart } },
    });
  });
});
