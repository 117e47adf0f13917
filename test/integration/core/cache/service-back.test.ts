import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus, EventName, EventPayload, SyncState } from '../../../../main/contract/index.ts';
import { createCore, type Core } from '../../../../main/core/index.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { caller, memoryKeychain } from '../core-harness.ts';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.ts';
import { until } from '../workspace/workspace-harness.ts';

// A result's download into the cache that the service broke off (it was stopped mid-way): the
// account says offline as the first page fails, not after the download gives up; the download
// waits, and goes on by itself from the rows it kept when the service answers again, on the same
// port, ending with the result row for row.

const KEY = 'service-back-key';
const TOTAL = 100_000;
/** The cache's pages are 30,000 rows: the first two pass, the rest wait until the service is stopped. */
const HELD_FROM = 60_000;

let dir: string;
let service: RunningService | null;
let port: number;
let proxy: FaultProxy;
let core: Core;
let call: ReturnType<typeof caller>;
let accountId: string;
let releasePages: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();
/** Pages from HELD_FROM on wait from now until `releasePages`. */
function holdPages(): void {
  held = new Promise<void>((resolve) => (releasePages = resolve));
}
const events: { event: EventName; payload: unknown }[] = [];
const accounts = { accounts: [{ handle: 'alice', type: 'user', plan: 'premium', api_keys: [KEY] }] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-service-back-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, accounts });
  port = Number(new URL(service.baseUrl).port);
  proxy = await startFaultProxy(service.baseUrl, (request) => (pageOffset(request.url ?? '') >= HELD_FROM ? { heldUntil: held } : null));
  core = await createCore({
    host: 'web',
    version: '0.0.0',
    localService: { baseUrl: service.baseUrl, apiKey: null },
    emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void events.push({ event, payload }),
    dataDir: join(dir, 'app'),
    keyVault: new KeyVault(memoryKeychain()),
  });
  call = caller(core);
});

afterAll(async () => {
  releasePages();
  await core?.dispose();
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The first row of a result page asked for, or -1 for any other request. */
function pageOffset(url: string): number {
  const match = /\/execution\/[^/]+\/results[^?]*\?(?:.*&)?offset=(\d+)/.exec(url);
  return match ? Number(match[1]) : -1;
}

const syncs = () => events.filter((e) => e.event === 'workspace:sync').map((e) => e.payload as SyncState);
const cacheStatuses = (executionId: string) =>
  events
    .filter((e) => e.event === 'results:cacheStatus' && (e.payload as CacheStatus).executionId === executionId)
    .map((e) => e.payload as CacheStatus);

/** Runs a query of TOTAL rows and starts caching it; stops the service once the pages before HELD_FROM are in. */
async function breakOffDownload(accountId: string): Promise<{ executionId: string; interrupted: CacheStatus; stoppedAt: number }> {
  holdPages();
  const run = await call('executions:runSql', { accountId, queryId: null, sql: `SELECT range AS n FROM range(${TOTAL})` });
  if (!run.ok) throw new Error(run.error.message);
  const { executionId } = run.data;
  await until(async () => {
    const state = await call('executions:get', { accountId, executionId });
    return state.ok && state.data.isFinished;
  }, 'the run to finish');
  expect(await call('results:cache', { accountId, executionId })).toMatchObject({ ok: true, data: { state: 'downloading' } });
  await until(() => cacheStatuses(executionId).some((s) => s.rowsLoaded === HELD_FROM), 'the pages before the held ones');
  await service!.close();
  service = null;
  const stoppedAt = events.length;
  releasePages();
  const interrupted = await until(() => cacheStatuses(executionId).find((s) => s.state !== 'downloading'), 'the download to stop', 60_000);
  return { executionId, interrupted, stoppedAt };
}

describe('a download the service broke off', () => {
  it('says offline at once, then goes on by itself from the rows kept when the service is back, and ends exact', async () => {
    const added = await call('accounts:add', { label: 'Remote', baseUrl: proxy.baseUrl, apiKey: KEY });
    if (!added.ok) throw new Error(added.error.message);
    accountId = added.data.id;
    await call('workspace:open', { accountId });
    await until(() => syncs().some((s) => s.status === 'online'), 'the account online');

    const { executionId, interrupted, stoppedAt } = await breakOffDownload(accountId);
    expect(interrupted).toMatchObject({ state: 'interrupted', rowsLoaded: HELD_FROM, totalRowCount: TOTAL });
    expect(interrupted.error).toMatch(/\(ECONNREFUSED\)\.$|\(ECONNRESET\)\.$|\(UND_ERR_SOCKET\)\.$/);
    // the first failed page said so, before the download gave up on its retries
    const offlineAt = events.findIndex(
      (e, i) => i >= stoppedAt && e.event === 'workspace:sync' && (e.payload as SyncState).status === 'offline',
    );
    const stoppedStatusAt = events.findIndex((e) => e.payload === interrupted);
    expect(offlineAt).toBeGreaterThan(-1);
    expect(offlineAt).toBeLessThan(stoppedStatusAt);

    const askedBefore = proxy.requests.length;
    service = await startService({ dataDir: join(dir, 'service'), port, accounts });
    await until(() => cacheStatuses(executionId).at(-1)?.state === 'cached', 'the download to go on and end', 120_000);
    expect(syncs().at(-1)?.status).toBe('online');
    const offsets = proxy.requests
      .slice(askedBefore)
      .map(pageOffset)
      .filter((offset) => offset >= 0);
    expect(Math.min(...offsets)).toBe(HELD_FROM);

    for (let start = 0; start < TOTAL; start += 10_000) {
      const page = await call('results:getRows', { accountId, executionId, startRow: start, endRow: start + 10_000 });
      if (!page.ok) throw new Error(page.error.message);
      expect(page.data.fromCache).toBeTruthy();
      expect(page.data.rows.map(([n]) => Number(n))).toEqual(Array.from({ length: 10_000 }, (_, i) => start + i));
    }
  }, 180_000);

  it('reads the rows it kept from the cache while the service is away', async () => {
    const { executionId, interrupted } = await breakOffDownload(accountId);
    expect(interrupted).toMatchObject({ state: 'interrupted', rowsLoaded: HELD_FROM });

    for (const start of [0, HELD_FROM - 10_000]) {
      const page = await call('results:getRows', { accountId, executionId, startRow: start, endRow: start + 10_000 });
      if (!page.ok) throw new Error(page.error.message);
      expect(page.data).toMatchObject({ startRow: start, totalRowCount: TOTAL, isPartial: false });
      expect(page.data.fromCache).toBeTruthy();
      expect(page.data.rows.map(([n]) => Number(n))).toEqual(Array.from({ length: 10_000 }, (_, i) => start + i));
    }
    // past the kept rows, or a view that needs every row: only the service can say, and it is away
    expect((await call('results:getRows', { accountId, executionId, startRow: HELD_FROM - 10, endRow: HELD_FROM + 10 })).ok).toBe(false);
    expect((await call('results:getRows', { accountId, executionId, startRow: 0, endRow: 10, sortBy: 'n desc' })).ok).toBe(false);

    service = await startService({ dataDir: join(dir, 'service'), port, accounts });
    await until(() => cacheStatuses(executionId).at(-1)?.state === 'cached', 'the download to go on and end', 120_000);
  }, 180_000);

  it("says it failed, with the service's reason, when the service is back without the result", async () => {
    const { executionId, interrupted } = await breakOffDownload(accountId);
    expect(interrupted).toMatchObject({ state: 'interrupted', rowsLoaded: HELD_FROM });
    // a service on the same port that never ran it
    service = await startService({ dataDir: join(dir, 'another-service'), port, accounts });
    const ended = await until(() => cacheStatuses(executionId).find((s) => s.state === 'failed'), 'the download to fail', 120_000);
    expect(ended.error).toMatch(/^The requested execution ID/);
  }, 180_000);
});
