import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import { listEntries } from '../../../../main/core/cache/manifest.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { ActivityLog } from '../../../../main/core/logging/activity-log.ts';
import { createLogger } from '../../../../main/core/logging/logger.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { expectSentences } from '../../words/read-words.ts';
import { startFaultProxy, type Fault, type FaultProxy } from '../fault-proxy.ts';
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
let stallPages = false;
let activity: ActivityLog;
const cacheOptions = (now?: () => Date) => ({
  dir: join(dir, 'cache'),
  onStatus: (s: CacheStatus) => {
    statuses.push(s);
    activity.download(s);
  },
  onResumed: (accountId: string, executionId: string, fromRow: number) => activity.downloadResumed(accountId, executionId, fromRow),
  pageRows: PAGE_ROWS,
  pagesInFlight: { min: 1, max: 1 },
  now,
});
const logLines = () => readdirSync(join(dir, 'logs')).flatMap((name) => readFileSync(join(dir, 'logs', name), 'utf8').split('\n'));

let statuses: CacheStatus[] = [];
async function startDownload(executionId: string, knownRows: number | null = null): Promise<void> {
  // one attempt per request and one page at a time, so that the break comes after the pages before it
  const client = createServiceClient({
    baseUrl: proxy.baseUrl,
    serviceName: 'DUNE',
    apiKey: service.demoApiKey ?? '',
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const started = await cache.start('local', client, executionId, false, knownRows);
  if (!started.ok) throw new Error(started.error.message);
}
async function download(executionId: string, knownRows: number | null = null): Promise<CacheStatus> {
  const seen = statuses.length;
  await startDownload(executionId, knownRows);
  for (;;) {
    const ended = statuses.slice(seen).find((s) => s.executionId === executionId && s.state !== 'downloading');
    if (ended) return ended;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-resume-'));
  activity = new ActivityLog(createLogger({ dir: join(dir, 'logs') }), (accountId) => `account ${accountId}`);
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_ROWS });
  // the page at row 2500 breaks off half-way, on every attempt, while `breakPages` is set
  // (or never answers, while `stallPages` is set)
  proxy = await startFaultProxy(service.baseUrl, (request): Fault | null => {
    if (!/\/results\/csv\?.*offset=2500\b/.test(request.url ?? '')) return null;
    return breakPages ? 'cut' : stallPages ? 'stall' : null;
  });
  cache = await openResultCache(cacheOptions());
});

afterAll(async () => {
  await cache?.close();
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const csvOffsets = (from: number) =>
  proxy.requests
    .slice(from)
    .filter((line) => line.includes('/results/csv'))
    .map((line) => Number(/offset=(\d+)/.exec(line)?.[1]));

async function cachedIds(executionId: string): Promise<number[]> {
  const entry = (await cache.use('local', executionId))!;
  return cache.db.withConnection(async (connection) =>
    (await connection.runAndReadAll(`SELECT trade_id FROM "${entry.tableName}" ORDER BY rowid`)).getRows().map(([id]) => Number(id)),
  );
}

describe('a download broken off', () => {
  it('leaves the cache as it was, then goes on from the last row loaded', async () => {
    const other = await finishedRun(service, 'Demo trades');
    expect(await download(other)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    await cache.folded();
    const before = await listEntries(cache.db);

    const executionId = await finishedRun(service, 'Demo trades');
    breakPages = true;
    const broken = await download(executionId);
    expect(broken).toMatchObject({ state: 'interrupted' });
    expect(broken.error).toMatch(/\(ECONNREFUSED\)\.$|\(ECONNRESET\)\.$|\(UND_ERR_SOCKET\)\.$/);
    expectSentences(broken.error ?? '');
    expect(await listEntries(cache.db)).toEqual(before);
    expect(await cache.use('local', executionId)).toBeNull();

    breakPages = false;
    const asked = proxy.requests.length;
    // with the result's rows known, the pages asked for beside the status start from the last row loaded too
    expect(await download(executionId, TOTAL)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(csvOffsets(asked)).toEqual(Array.from({ length: 5 }, (_, i) => 2500 + i * PAGE_ROWS));
    // the day's log tells how it went: the pause with its reason, the restart from the rows kept, the end
    const lines = logLines().filter((line) => line.includes(executionId));
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `WARN account local: download of result ${executionId} paused after 2500 of ${TOTAL} rows: (The connection to|Nothing accepted the connection to) http://127`,
        ),
      ),
      expect.stringMatching(/INFO account local: download of result \S+ resumed at row 2500, from the rows kept on disk$/),
      expect.stringMatching(new RegExp(`INFO account local: download of result \\S+ done: ${TOTAL} rows$`)),
    ]);
    expect(await cachedIds(executionId)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect((await listEntries(cache.db)).map((e) => e.executionId).sort()).toEqual([other, executionId].sort());
  });

  it('starts from the first row again once the account is forgotten, which drops the rows kept', async () => {
    const executionId = await finishedRun(service, 'Demo trades');
    breakPages = true;
    expect(await download(executionId)).toMatchObject({ state: 'interrupted' });
    breakPages = false;
    await cache.forgetAccount('local');
    const tables = await cache.db.withConnection(async (connection) =>
      (
        await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE table_name NOT IN ('cache_entries', 'kept_downloads')")
      ).getRows(),
    );
    expect(tables).toEqual([]);
    const asked = proxy.requests.length;
    expect(await download(executionId)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(proxy.requests.slice(asked).find((line) => line.includes('/results/csv'))).toMatch(/offset=0\b/);
  });

  it('goes on from the last row loaded after the app closed during it and opened again', async () => {
    const executionId = await finishedRun(service, 'Demo trades');
    stallPages = true;
    await startDownload(executionId);
    await expect.poll(() => statuses.findLast((s) => s.executionId === executionId)?.rowsLoaded, { timeout: 10_000 }).toBe(2500);
    await cache.close();
    stallPages = false;
    cache = await openResultCache(cacheOptions());
    const asked = proxy.requests.length;
    expect(await download(executionId)).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(csvOffsets(asked)[0]).toBe(2500);
    expect(await cachedIds(executionId)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  });

  it('starts from the first row again when the app opens more than a week after the break, and the rows kept are gone', async () => {
    const executionId = await finishedRun(service, 'Demo trades');
    breakPages = true;
    expect(await download(executionId)).toMatchObject({ state: 'interrupted' });
    breakPages = false;
    await cache.close();
    cache = await openResultCache(cacheOptions(() => new Date(Date.now() + 8 * 24 * 60 * 60 * 1000)));
    const tables = await cache.db.withConnection(async (connection) =>
      (
        await connection.runAndReadAll(
          "SELECT (SELECT count(*) FROM kept_downloads), (SELECT count(*) FROM duckdb_tables() WHERE table_name NOT IN (SELECT table_name FROM cache_entries) AND table_name NOT IN ('cache_entries', 'kept_downloads'))",
        )
      ).getRows(),
    );
    expect(tables).toEqual([[0n, 0n]]);
    const asked = proxy.requests.length;
    await startDownload(executionId);
    await expect.poll(() => csvOffsets(asked)[0]).toBe(0);
  });

  it('keeps the rows of four downloads at most: a fifth broken off drops the oldest', async () => {
    await cache.forgetAccount('local');
    const broken: string[] = [];
    breakPages = true;
    for (let i = 0; i < 5; i++) {
      broken.push(await finishedRun(service, 'Demo trades'));
      expect(await download(broken[i]!)).toMatchObject({ state: 'interrupted' });
    }
    breakPages = false;
    const kept = await cache.db.withConnection(async (connection) =>
      (await connection.runAndReadAll('SELECT execution_id FROM kept_downloads')).getRows().map(([id]) => String(id)),
    );
    expect(kept.sort()).toEqual(broken.slice(1).sort());
    const asked = proxy.requests.length;
    await startDownload(broken[0]!);
    await expect.poll(() => csvOffsets(asked)[0]).toBe(0);
  });
});
