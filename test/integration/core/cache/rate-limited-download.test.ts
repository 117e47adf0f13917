import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import { RATE_LIMIT_WAIT_MS } from '../../../../main/core/cache/download-outcomes.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { startFaultProxy, type Fault, type FaultProxy } from '../fault-proxy.ts';
import { finishedRun } from './finished-run.ts';

// A download the service's rate limit refuses mid-way (a 429 on a page, as the embedded service
// with --rate-limit and a Free-plan account sends): it waits as long as the service asked, says
// until when, and goes on by itself from the rows it kept; none is lost or asked for twice.

const PAGE_ROWS = 500;
const TOTAL = 5000;
const BREAK_AT = 2500;
/** The cache's clock stands still, so that when a download goes on can be told exactly. */
const NOW = Date.now();

let dir: string;
let service: RunningService;
let proxy: FaultProxy;
let cache: ResultCache;
let statuses: CacheStatus[] = [];
/** The answers the page at BREAK_AT gets before it passes. */
let refusals: Fault[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-rate-limited-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_ROWS });
  proxy = await startFaultProxy(service.baseUrl, (request) =>
    new RegExp(`/results(/csv)?\\?(.*&)?offset=${BREAK_AT}\\b`).test(request.url ?? '') ? (refusals.shift() ?? null) : null,
  );
  cache = await openResultCache({
    dir: join(dir, 'cache'),
    onStatus: (status) => statuses.push(status),
    pageRows: PAGE_ROWS,
    pagesInFlight: { min: 1, max: 1 },
    now: () => new Date(NOW),
  });
});

afterAll(async () => {
  await cache?.close();
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const refused = (retryAfterSeconds: number | null): Fault => ({
  status: 429,
  body: JSON.stringify({ error: 'rate limit exceeded: the free plan allows 40 read requests per minute' }),
  headers: retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) },
});

/** Starts caching the result with a client that leaves every retry to the cache. */
async function startDownload(executionId: string): Promise<void> {
  const client = createServiceClient({
    baseUrl: proxy.baseUrl,
    serviceName: 'DUNE',
    apiKey: service.demoApiKey ?? '',
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const started = await cache.start('local', client, executionId, false);
  if (!started.ok) throw new Error(started.error.message);
}

async function firstStatus(executionId: string, from: number, isIt: (status: CacheStatus) => boolean): Promise<CacheStatus> {
  for (;;) {
    const seen = statuses.slice(from).find((status) => status.executionId === executionId && isIt(status));
    if (seen) return seen;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pageOffsets = (from: number) =>
  proxy.requests
    .slice(from)
    .filter((line) => line.includes('/results'))
    .map((line) => Number(/offset=(\d+)/.exec(line)?.[1] ?? -1));

describe('a download the rate limit refuses', () => {
  it('waits as long as the service asked, saying until when, then goes on from the rows it kept', async () => {
    const executionId = await finishedRun(service, 'Demo trades');
    refusals = [refused(1)];
    const seen = statuses.length;
    const asked = proxy.requests.length;
    await startDownload(executionId);
    const waiting = await firstStatus(executionId, seen, (status) => status.state !== 'downloading');
    expect(waiting).toMatchObject({ state: 'interrupted', rowsLoaded: BREAK_AT, resumesAt: new Date(NOW + 1000).toISOString() });
    expect(waiting.error).toContain('rate limit exceeded');

    const done = await firstStatus(executionId, seen, (status) => status.state === 'cached');
    expect(done).toMatchObject({ rowsLoaded: TOTAL, totalRowCount: TOTAL });
    expect(done.resumesAt).toBeUndefined();
    // every page once, but the refused one, asked for again where the download went on
    const offsets = pageOffsets(asked).filter((offset) => offset >= 0);
    expect([...new Set(offsets)].sort((a, b) => a - b)).toEqual(Array.from({ length: TOTAL / PAGE_ROWS }, (_, i) => i * PAGE_ROWS));
    expect(offsets.filter((offset) => offset < BREAK_AT).length).toBe(BREAK_AT / PAGE_ROWS);
    const entry = (await cache.use('local', executionId))!;
    const ids = await cache.db.withConnection(async (connection) =>
      (await connection.runAndReadAll(`SELECT trade_id FROM "${entry.tableName}" ORDER BY rowid`)).getRows().map(([id]) => Number(id)),
    );
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  });

  it('waits a minute when the service does not say how long, as Dune does not, and can be cancelled meanwhile', async () => {
    const executionId = await finishedRun(service, 'Demo trades');
    refusals = [refused(null)];
    const seen = statuses.length;
    await startDownload(executionId);
    const waiting = await firstStatus(executionId, seen, (status) => status.state !== 'downloading');
    expect(waiting).toMatchObject({
      state: 'interrupted',
      rowsLoaded: BREAK_AT,
      resumesAt: new Date(NOW + RATE_LIMIT_WAIT_MS).toISOString(),
    });

    const cancelled = await cache.cancel('local', executionId);
    expect(cancelled).toMatchObject({ state: 'cancelled', error: null });
    expect(cancelled.resumesAt).toBeUndefined();
  });
});
