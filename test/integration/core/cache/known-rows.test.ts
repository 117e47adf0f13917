import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.ts';
import { startCacheHarness, until, type CacheHarness } from './cache-harness.ts';

// The app asks for a result's first pages beside its status. Of a run it watched end, or a result
// whose status it has just read (a query's latest), it knows the rows, and so asks for as many
// pages as a download's window holds, and no more than the result has.

let harness: CacheHarness;
let proxy: FaultProxy;
/** While set, status requests wait until it resolves. */
let statusHeld: Promise<void> | null = null;

beforeAll(async () => {
  harness = await startCacheHarness();
  const service = harness.service!;
  proxy = await startFaultProxy(service.baseUrl, (request) =>
    statusHeld !== null && /\/status\b/.test(request.url ?? '') ? { heldUntil: statusHeld } : null,
  );
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

/** 100,000 rows: four of the service's 30,000-row pages. */
const SQL = 'SELECT i AS n FROM range(100000) AS t(i)';

/** Holds the status requests from now until the download has asked for four pages, and answers the pages it asked for. */
async function pagesBeforeStatus(start: () => Promise<unknown>): Promise<number[]> {
  const since = proxy.requests.length;
  let release = () => undefined as void;
  statusHeld = new Promise<void>((resolve) => (release = resolve));
  const started = start();
  // with one page asked for beside the status, this would wait for ever
  await until(() => pageOffsets(since).length === 4);
  release();
  statusHeld = null;
  await started;
  return pageOffsets(since);
}

it('asks for the pages of a result it watched end before the status answers, as many as the window holds', async () => {
  const executionId = await harness.runSql(SQL);
  const offsets = await pagesBeforeStatus(() => harness.call('results:cache', { accountId: 'local', executionId }));
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', rowsLoaded: 100_000 });
  expect(offsets.sort((a, b) => a - b)).toEqual([0, 30_000, 60_000, 90_000]);
});

it("does the same for a query's latest result, read from the service, of a run the app did not start", async () => {
  const service = harness.service!;
  const asService = async (path: string, body?: unknown) => {
    const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
      ...init,
      headers: { ...init.headers, 'x-dune-api-key': service.demoApiKey! },
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const queryId = Number((await asService('/query', { name: 'elsewhere', query_sql: SQL })).query_id);
  const executionId = String((await asService(`/query/${queryId}/execute`, {})).execution_id);
  while (!(await asService(`/execution/${executionId}/status`)).is_execution_finished)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const offsets = await pagesBeforeStatus(() => harness.call('executions:latest', { accountId: 'local', queryId }));
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', rowsLoaded: 100_000 });
  expect(offsets.sort((a, b) => a - b)).toEqual([0, 30_000, 60_000, 90_000]);
});
