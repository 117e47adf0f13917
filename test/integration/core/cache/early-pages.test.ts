import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { finishedRun } from './finished-run.ts';

// A download asks for its first pages beside the result's status, not after it (as many as its
// window holds when the app knows the result's rows, else one): the rows come out whole and in
// order whatever size the service cuts its pages to, and the pages asked for early are dropped,
// files and all, when the status says the result is not to be cached or the download did not need them.

const TOTAL = 5000;
let dir: string;
let service: RunningService;
let proxy: Server;
let proxyUrl: string;
/** Every request through the proxy, as `METHOD path?query`. */
const requests: string[] = [];
/** While set, a status request is answered only once a CSV page has been asked for. */
let holdStatus = false;
let pageAsked: () => void = () => undefined;
let pageWasAsked = Promise.resolve();
/** While set, the page at offset 0 is asked of the service for 300 rows, whatever was asked: a service that cuts some pages and not others. */
let cutFirstPage = false;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-early-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: 500 });
  const target = new URL(service.baseUrl);
  proxy = createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    if (incoming.url?.includes('/results/csv')) pageAsked();
    const held = holdStatus && /\/status\b/.test(incoming.url ?? '') ? pageWasAsked : Promise.resolve();
    void held.then(() => {
      const url = new URL(incoming.url ?? '/', 'http://x');
      if (cutFirstPage && url.pathname.endsWith('/results/csv') && url.searchParams.get('offset') === '0')
        url.searchParams.set('limit', '300');
      const path = `${url.pathname}${url.search}`;
      const passed = forward(
        { host: target.hostname, port: target.port, method: incoming.method, path, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      passed.on('error', () => outgoing.destroy());
      incoming.pipe(passed);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A cache of its own; `start` and wait for the download's end (or its refusal). */
async function cacheOnce(
  name: string,
  options: { pageRows: number; pagesInFlight: { min: number; max: number }; budgetBytes?: number; knownRowCount?: () => number },
) {
  let ended: (status: CacheStatus) => void = () => undefined;
  const done = new Promise<CacheStatus>((resolve) => (ended = resolve));
  const cache: ResultCache = await openResultCache({
    dir: join(dir, name),
    onStatus: (s) => s.state !== 'downloading' && ended(s),
    ...options,
  });
  const executionId = await finishedRun(service, 'Demo trades');
  const client = createServiceClient({ baseUrl: proxyUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
  const started = await cache.start('local', client, executionId, false);
  if (!started.ok) throw new Error(started.error.message);
  const status = started.data.state === 'downloading' ? await done : started.data;
  const entry = await cache.use('local', executionId);
  const ids = entry
    ? await cache.db.withConnection(async (c) =>
        (await c.runAndReadAll(`SELECT trade_id FROM "${entry.tableName}" ORDER BY rowid`)).getRows().map(([id]) => Number(id)),
      )
    : [];
  return { cache, status, ids, executionId, downloads: join(dir, name, 'downloads') };
}

/** The pages asked for since request `since`, as `offset+limit`. */
const pagesAsked = (since: number) =>
  requests
    .slice(since)
    .filter((line) => line.includes('/results/csv'))
    .map((line) => {
      const query = new URL(line.split(' ')[1]!, 'http://x').searchParams;
      return `${query.get('offset')}+${query.get('limit')}`;
    });

const pageFiles = (downloads: string) =>
  existsSync(downloads) ? readdirSync(downloads, { recursive: true }).filter((f) => String(f).endsWith('.page')) : [];

describe('the first pages of a download', () => {
  it('are asked for before the status has answered', async () => {
    holdStatus = true;
    pageWasAsked = new Promise<void>((resolve) => (pageAsked = resolve));
    // a download that waited for the status before asking for a page would never end here
    const { cache, status, ids } = await cacheOnce('held', { pageRows: 500, pagesInFlight: { min: 2, max: 4 } });
    holdStatus = false;
    expect(status).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    await cache.close();
  });

  it("are the window's first pages, all asked for before the status answers, when the app knows the result's rows", async () => {
    const asked = requests.length;
    holdStatus = true;
    // the status answers only once four pages have been asked for: a download that asked for fewer first would never end
    pageWasAsked = new Promise<void>((resolve) => (pageAsked = () => pagesAsked(asked).length >= 4 && resolve()));
    const { cache, status, ids } = await cacheOnce('known', {
      pageRows: 500,
      pagesInFlight: { min: 2, max: 4 },
      knownRowCount: () => TOTAL,
    });
    holdStatus = false;
    expect(status).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    // every page once: none asked for twice, none past the end
    expect(pagesAsked(asked).sort()).toEqual(Array.from({ length: TOTAL / 500 }, (_, i) => `${i * 500}+500`).sort());
    expect(pagesAsked(asked).slice(0, 4).sort()).toEqual(['0+500', '1000+500', '1500+500', '500+500']);
    await cache.close();
  });

  it("give the result whole when the rows the app knew were not the result's, or the service cuts the pages shorter", async () => {
    // rows remembered wrong (more, then fewer); pages of 2,000 asked for early of 500 sent; and the
    // first page alone cut to 300 rows, so that the download asks again, in pieces of 300, for rows
    // it had asked for early in pages of 2,000 (which hold more than those pieces)
    const cases = [
      ['more', 500, TOTAL + 1200, 3],
      ['fewer', 500, 700, 3],
      ['known-cut', 2000, TOTAL, 3],
      ['first-cut', 2000, TOTAL, 1],
    ] as const;
    for (const [name, pageRows, known, min] of cases) {
      cutFirstPage = name === 'first-cut';
      const { cache, status, ids, downloads } = await cacheOnce(name, {
        pageRows,
        pagesInFlight: { min, max: 3 },
        knownRowCount: () => known,
      });
      cutFirstPage = false;
      expect(status).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
      expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
      expect(pageFiles(downloads)).toEqual([]);
      await cache.close();
    }
  });

  it('give whole rows in order when the service cuts them shorter, and past the last row are dropped', async () => {
    // pages of 2,000 rows asked for, of 500 sent; then 12 pages of 500 asked for at once, of 10 in the result
    for (const [name, pageRows, min] of [
      ['cut', 2000, 3],
      ['past', 500, 12],
    ] as const) {
      const { cache, status, ids, downloads } = await cacheOnce(name, { pageRows, pagesInFlight: { min, max: min } });
      expect(status).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
      expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
      expect(pageFiles(downloads)).toEqual([]);
      await cache.close();
    }
  });

  it('are dropped with their files when the result is above the budget', async () => {
    const asked = requests.length;
    holdStatus = true;
    pageWasAsked = new Promise<void>((resolve) => (pageAsked = resolve));
    const { cache, status, downloads } = await cacheOnce('small', { pageRows: 500, pagesInFlight: { min: 4, max: 4 }, budgetBytes: 1000 });
    holdStatus = false;
    expect(status).toMatchObject({ state: 'too_large', totalRowCount: TOTAL });
    expect(requests.slice(asked).some((line) => line.includes('/results/csv'))).toBe(true);
    // they are dropped in the background: the start answered at once
    while (pageFiles(downloads).length > 0 || (existsSync(downloads) && readdirSync(downloads).length > 0))
      await new Promise((resolve) => setTimeout(resolve, 10));
    await cache.close();
  });
});
