import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRequest, ExportProgress } from '../../../../main/contract/index.ts';
import { fileTarget, type ExportDestinations, type ExportTarget } from '../../../../main/core/export/destination.ts';
import { chartCaption, chartConfig } from '../../../../renderer/src/charts/chart-config.ts';
import { expectWellSaid } from '../../words/read-words.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// Exports (from the cache and from the service, the same bytes either way; streamed; cancellable)
// and charts aggregated from the cache.

let harness: CacheHarness;
let cached: string;
let uncached: string;
let nextTarget: ((exportId: string, name: string) => ExportTarget | null) | null = null;
const destinations: ExportDestinations = {
  choose: async (exportId, name) => (nextTarget ?? ((id: string, n: string) => fileTarget(join(harness.dir, n), id)))(exportId, name),
};

beforeAll(async () => {
  harness = await startCacheHarness({ maxPageRows: 1500 }, { exportDestinations: destinations });
  cached = await harness.run('Demo trades');
  uncached = await harness.run('Demo trades');
  expect(await harness.cacheWhole(cached)).toMatchObject({ state: 'cached' });
});
afterAll(async () => harness?.close());

async function serviceCsv(executionId: string): Promise<string> {
  let text = '';
  for (let offset = 0; offset < 5000; offset += 1500) {
    const response = await fetch(`${harness.service!.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=1500&offset=${offset}`, {
      headers: { 'X-DUNE-API-KEY': harness.service!.demoApiKey! },
    });
    const page = await response.text();
    text += offset === 0 ? page : page.slice(page.indexOf('\n') + 1);
  }
  return text;
}

async function exportTo(fileName: string, request: Omit<ChannelRequest<'results:export'>, 'accountId' | 'fileName'>) {
  const started = await harness.call('results:export', { accountId: 'local', fileName, ...request });
  if (!started.ok) throw new Error(started.error.message);
  const ended = await harness.exportEnded(started.data.exportId);
  return { started: started.data, ended, text: readFileSync(join(harness.dir, fileName), 'utf8') };
}

describe('export', () => {
  it('writes the whole result from the cache exactly as the service’s CSV, when asked for its text', async () => {
    const { started, ended, text } = await exportTo('all.csv', { executionId: cached, scope: 'all', text: 'service' });
    expect(started.delivery).toEqual({ kind: 'file', path: join(harness.dir, 'all.csv') });
    expect(ended).toMatchObject({ state: 'done', rowsWritten: 5000, totalRowCount: 5000, fromCache: true, error: null });
    expect(ended.bytesWritten).toBe(Buffer.byteLength(text));
    expect(text).toBe(await serviceCsv(cached));
    expect(existsSync(join(harness.dir, `all.csv.${started.exportId}.part`))).toBe(false);
  });

  it('writes the same view from the service and from the cache', async () => {
    const view = {
      scope: 'view' as const,
      filters: "chain IN ('base', 'optimism') AND amount_usd > 100",
      sortBy: 'amount desc, trade_id',
      columns: 'trade_id,block_time,amount,route',
    };
    const fromCache = await exportTo('view-cache.csv', { executionId: cached, ...view });
    const fromService = await exportTo('view-service.csv', { executionId: uncached, ...view });
    expect(fromService.ended).toMatchObject({ state: 'done', fromCache: false });
    expect(fromCache.ended).toMatchObject({ state: 'done', fromCache: true, rowsWritten: fromService.ended.totalRowCount });
    expect(fromCache.text).toBe(fromService.text);
    expect(fromCache.text.split('\n')[0]).toBe('trade_id,block_time,amount,route');
    // DECIMAL(18, 6) with its scale, and a time spreadsheets read
    expect(fromCache.text.split('\n')[1]).toMatch(/^\d+,2024-01-\d\d \d\d:\d\d:\d\d\.000,\d+\.\d{6},/);
    expect(fromCache.text.split('\n').length).toBe(fromService.ended.totalRowCount! + 2);
  });

  it('refuses a wrong view before asking where to save, and says when no file was chosen', async () => {
    let asked = 0;
    nextTarget = () => (asked++, null);
    const wrong = await harness.call('results:export', { accountId: 'local', executionId: cached, scope: 'view', filters: 'nope = 1' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'bad_request', details: { part: 'filters', position: 1 } } });
    expect(asked).toBe(0);
    const declined = await harness.call('results:export', { accountId: 'local', executionId: cached, scope: 'all' });
    expect(declined).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(asked).toBe(1);
    nextTarget = null;
  });

  it('stops on cancel and leaves nothing behind', async () => {
    let discarded = false;
    // a receiver that takes the first chunk and then never asks for more
    nextTarget = () => ({
      delivery: { kind: 'download', url: '/export/x' },
      open: async () => new Writable({ highWaterMark: 16, write: () => undefined }),
      finish: async () => undefined,
      discard: async () => void (discarded = true),
    });
    const started = await harness.call('results:export', { accountId: 'local', executionId: cached, scope: 'all' });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.data.exportId;
    const states = () =>
      harness.events.filter((e) => (e.payload as ExportProgress).exportId === id).map((e) => (e.payload as ExportProgress).state);
    while (!states().includes('running')) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await harness.call('results:exportCancel', { exportId: id })).toEqual({ ok: true, data: { cancelled: true } });
    expect(await harness.exportEnded(id)).toMatchObject({ state: 'cancelled', error: null });
    expect(discarded).toBe(true);
    expect(states()[0]).toBe('waiting');
    nextTarget = null;
  });
});

describe('charts', () => {
  it('bucket a time x by day, one series per group, within the point budget', async () => {
    const chart = await harness.call('results:chart', {
      accountId: 'local',
      executionId: cached,
      kind: 'line',
      x: 'block_time',
      y: ['amount_usd', 'amount'],
      groupBy: 'chain',
      aggregation: 'sum',
      maxPoints: 200,
    });
    if (!chart.ok) throw new Error(chart.error.message);
    expect(chart.data).toMatchObject({
      x: { name: 'block_time', type: 'timestamp(3)', kind: 'time' },
      bucket: 'day',
      groupBy: 'chain',
      truncated: false,
    });
    expect(chart.data.rows.length).toBeLessThanOrEqual(200);
    expect(chart.data.rows[0]).toEqual(['2024-01-01 00:00:00.000 UTC', 'arbitrum', expect.any(Number), expect.any(Number)]);
    expect(new Set(chart.data.rows.map((r) => r[1]))).toEqual(new Set(['ethereum', 'arbitrum', 'optimism', 'base', 'polygon']));
    // drawn, a day's bucket reads as its day
    expect(chartConfig(chart.data, 'bar').data.labels?.slice(0, 2)).toEqual(['2024-01-01', '2024-01-02']);

    const twoDays = await harness.call('results:chart', {
      accountId: 'local',
      executionId: cached,
      kind: 'bar',
      x: 'block_time',
      y: [],
      aggregation: 'count',
      filters: "block_time < '2024-01-03'",
    });
    if (!twoDays.ok) throw new Error(twoDays.error.message);
    expect(twoDays.data.bucket).toBe('hour');
    expect(chartConfig(twoDays.data, 'bar').data.labels?.slice(0, 2)).toEqual(['2024-01-01 00:00', '2024-01-01 01:00']);
    expect(chartCaption(twoDays.data, 'pie')).toContain('categories: 2024-01-01 00:00, 2024-01-01 01:00,');

    const byChain = await harness.call('results:chart', {
      accountId: 'local',
      executionId: cached,
      kind: 'bar',
      x: 'chain',
      y: ['amount_usd'],
      aggregation: 'sum',
    });
    const total = (rows: unknown[][], at: number) => rows.reduce((sum, r) => sum + (r[at] as number), 0);
    expect(byChain.ok && byChain.data.rows).toHaveLength(5);
    expect(total(byChain.ok ? byChain.data.rows : [], 2)).toBeCloseTo(total(chart.data.rows, 2), 3);
  });

  it('bin a numeric x, count rows, and apply filters', async () => {
    const chart = await harness.call('results:chart', {
      accountId: 'local',
      executionId: cached,
      kind: 'line',
      x: 'amount_usd',
      y: [],
      aggregation: 'count',
      maxPoints: 50,
    });
    if (!chart.ok) throw new Error(chart.error.message);
    expect(chart.data.bucket).toMatch(/^bins of /);
    expect(chart.data.rows.length).toBeLessThanOrEqual(50);
    expect(chart.data.rows.reduce((sum, r) => sum + (r[2] as number), 0)).toBe(5000);
    const filtered = await harness.call('results:chart', {
      accountId: 'local',
      executionId: cached,
      kind: 'bar',
      x: 'token',
      y: [],
      aggregation: 'count',
      filters: "chain = 'base'",
    });
    expect(filtered.ok && filtered.data.rows.reduce((sum, r) => sum + (r[2] as number), 0)).toBe(1000);
  });

  it('refuse an uncached result, an unknown column, and a sum of text', async () => {
    const notCached = await harness.call('results:chart', {
      accountId: 'local',
      executionId: uncached,
      kind: 'bar',
      x: 'chain',
      y: [],
      aggregation: 'count',
    });
    expect(notCached).toMatchObject({ ok: false, error: { code: 'not_found' } });
    if (!notCached.ok) expectWellSaid(notCached.error);
    expect(
      await harness.call('results:chart', { accountId: 'local', executionId: cached, kind: 'bar', x: 'nope', y: [], aggregation: 'count' }),
    ).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(
      await harness.call('results:chart', {
        accountId: 'local',
        executionId: cached,
        kind: 'bar',
        x: 'chain',
        y: ['token'],
        aggregation: 'sum',
      }),
    ).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});
