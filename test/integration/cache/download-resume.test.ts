import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../main/contract/index.ts';
import { listEntries } from '../../../main/core/cache/manifest.ts';
import { openResultCache, type ResultCache } from '../../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../main/service/index.ts';
import { startFaultProxy, type Fault, type FaultProxy } from '../core/fault-proxy.ts';
import { finishedRun } from './finished-run.ts';

// A download the network breaks off in the middle of a page: the cache keeps what it had, and the
// next start of the same result goes on from the last row loaded instead of from the first.

const PAGE_ROWS = 500;
const TOTAL = 5000;
let dir: string;
let service: RunningService;
let proxy: FaultProxy;
let cache: ResultCache;
let breakPages = false;

let statuses: CacheStatus[] = [];
async function download(executionId: string): Promise<CacheStatus> {
  // one attempt per request and one page at a time, so that the break comes after the pages before it
  const client = createServiceClient({ baseUrl: proxy.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '', retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  const seen = statuses.length;
  const started = await cache.start('local', client, executionId, false);
  if (!started.ok) throw new Error(started.error.message);
  for (;;) {
    const ended = statuses.slice(seen).find((s) => s.executionId === executionId && s.state !== 'downloading');
    if (ended) return ended;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-resume-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_ROWS });
  // the page at row 2500 breaks off half-way, on every attempt, while `breakPages` is set
  proxy = await startFaultProxy(service.baseUrl, (request): Fault | null => (breakPages && /\/results\/csv\?.*offset=2500\b/.test(request.url ?? '') ? 'cut' : null));
  cache = await openResultCache({ dir: join(dir, 'cache'), onStatus: (s) => statuses.push(s), pageRows: PAGE_ROWS, pagesInFlight: { min: 1, max: 1 } });
});

afterAll(async () => {
  await cache?.close();
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a download broken off', () => {
  it('leaves the cache as it was, then goes on from the last row loaded', async () => {
    const other = await finishedRun(service, 'Demo trades');
    expect(await download(other)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    const before = await listEntries(cache.db);

    const executionId = await finishedRun(service, 'Demo trades');
    breakPages = true;
    const broken = await download(executionId);
    expect(broken).toMatchObject({ state: 'failed' });
    expect(broken.error).toMatch(/Could not reach the service/);
    expect(await listEntries(cache.db)).toEqual(before);
    expect(await cache.use('local', executionId)).toBeNull();

    breakPages = false;
    const asked = proxy.requests.length;
    expect(await download(executionId)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    const offsets = proxy.requests
      .slice(asked)
      .filter((line) => line.includes('/results/csv'))
      .map((line) => Number(/offset=(\d+)/.exec(line)?.[1]));
    expect(offsets).toEqual(Array.from({ length: 5 }, (_, i) => 2500 + i * PAGE_ROWS));

    const entry = (await cache.use('local', executionId))!;
    const ids = await cache.db.withConnection(async (connection) =>
      (await connection.runAndReadAll(`SELECT trade_id FROM "${entry.tableName}" ORDER BY rowid`)).getRows().map(([id]) => Number(id)),
    );
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect((await listEntries(cache.db)).map((e) => e.executionId).sort()).toEqual([other, executionId].sort());
  });

  it('starts from the first row again once the account is forgotten, which drops the rows kept', async () => {
    const executionId = await finishedRun(service, 'Demo trades');
    breakPages = true;
    expect(await download(executionId)).toMatchObject({ state: 'failed' });
    breakPages = false;
    await cache.forgetAccount('local');
    const tables = await cache.db.withConnection(async (connection) =>
      (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE table_name <> 'cache_entries'")).getRows(),
    );
    expect(tables).toEqual([]);
    const asked = proxy.requests.length;
    expect(await download(executionId)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(proxy.requests.slice(asked).find((line) => line.includes('/results/csv'))).toMatch(/offset=0\b/);
  });
});
