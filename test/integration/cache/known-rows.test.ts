import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../core/fault-proxy.ts';
import { startCacheHarness, until, type CacheHarness } from './cache-harness.ts';

// The app asks for a result's first pages beside its status. Of a run it watched end it knows the
// rows, and so asks for as many pages as a download's window holds, and no more than the result has.

let harness: CacheHarness;
let proxy: FaultProxy;
/** While set, status requests wait until it resolves. */
let statusHeld: Promise<void> | null = null;

beforeAll(async () => {
  harness = await startCacheHarness();
  const service = harness.service!;
  proxy = await startFaultProxy(service.baseUrl, (request) => (statusHeld !== null && /\/status\b/.test(request.url ?? '') ? { heldUntil: statusHeld } : null));
  await harness.restartCore({ localService: { baseUrl: proxy.baseUrl, apiKey: service.demoApiKey } });
});

afterAll(async () => {
  await harness?.close();
  await proxy?.close();
});

/** The pages asked for since request `since`, as their offsets. */
const pageOffsets = (since: number) =>
  proxy.requests
    .slice(since)
    .filter((line) => line.includes('/results/csv'))
    .map((line) => Number(new URL(line.split(' ')[1]!, 'http://x').searchParams.get('offset')));

it("asks for the pages of a result it watched end before the status answers, as many as the window holds", async () => {
  // 100,000 rows: four of the service's 30,000-row pages
  const executionId = await harness.runSql('SELECT i AS n FROM range(100000) AS t(i)');
  const since = proxy.requests.length;
  let release = () => undefined as void;
  statusHeld = new Promise<void>((resolve) => (release = resolve));
  const started = harness.call('results:cache', { accountId: 'local', executionId });
  // with one page asked for beside the status, this would wait for ever
  await until(() => pageOffsets(since).length === 4);
  release();
  statusHeld = null;
  expect((await started).ok).toBe(true);
  const status = await harness.cacheWhole(executionId);
  expect(status).toMatchObject({ state: 'cached', rowsLoaded: 100_000 });
  expect(pageOffsets(since).sort((a, b) => a - b)).toEqual([0, 30_000, 60_000, 90_000]);
});
