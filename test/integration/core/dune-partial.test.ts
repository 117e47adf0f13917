import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { createServiceClient, type ServiceClient } from '../../../main/core/service-client/index.ts';
import { startDuneShapes, type DuneShapes } from '../../dune-shapes/dune-shapes-proxy.ts';
import { caller, memoryKeychain, startHarness, type Harness } from './core-harness.ts';

// A result the service truncated (COMPLETED_PARTIAL), from a service that answers as Dune does: the
// status of such a run carries no `result_metadata` (only a COMPLETED one does), and its result is
// refused without `allow_partial_results=true`. The run still shows its partial result.

let harness: Harness;
let shapes: DuneShapes;
let remote: ServiceClient;
let queryId: number;
const dirs: string[] = [];

beforeAll(async () => {
  harness = await startHarness({ resultCapBytes: 20_000 });
  shapes = await startDuneShapes(harness.baseUrl);
  remote = createServiceClient({ baseUrl: shapes.baseUrl, serviceName: 'DUNE', apiKey: harness.demoApiKey ?? '' });
  const listed = await remote.queries.list();
  const trades = listed.ok ? listed.data.queries.find((q) => q.name === 'Demo trades') : undefined;
  if (!trades) throw new Error('no demo query named Demo trades');
  queryId = trades.id;
});

afterAll(async () => {
  await shapes?.close();
  await harness?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A core of its own (no runs remembered) whose Local account is the Dune stand-in. */
async function duneCore() {
  const dataDir = mkdtempSync(join(tmpdir(), 'querydesk-dune-partial-'));
  dirs.push(dataDir);
  const core = await harness.startCore({
    dataDir,
    localService: { baseUrl: shapes.baseUrl, apiKey: harness.demoApiKey },
    keyVault: new KeyVault(memoryKeychain()),
  });
  return caller(core);
}

/** Runs the query on the service directly (as the web app would) and waits for it to end. */
async function runElsewhere(): Promise<string> {
  const started = await remote.executions.execute({ queryId });
  if (!started.ok) throw new Error(started.error.message);
  for (;;) {
    const status = await remote.executions.status(started.data.executionId);
    if (status.ok && status.data.isExecutionFinished) return started.data.executionId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const askedPartial = (executionId: string) =>
  shapes.requests.some((r) => r.path.includes(`/execution/${executionId}/results?`) && r.path.includes('allow_partial_results=true'));

describe('a partial result on a Dune-shaped service', () => {
  it('is shown as partial when a run of the app ends with it', async () => {
    const call = await duneCore();
    const started = await call('executions:run', { accountId: 'local', queryId });
    if (!started.ok) throw new Error(started.error.message);
    const done = await harness.finishedUpdate(started.data.executionId);
    expect(done).toMatchObject({ state: 'QUERY_STATE_COMPLETED_PARTIAL', isFinished: true, error: null });
    expect(done.result?.totalRowCount).toBeGreaterThan(0);
    expect(done.result?.columnNames.length).toBeGreaterThan(0);
    expect(askedPartial(started.data.executionId)).toBe(true);
  });

  it('is shown as partial when a finished run is opened (a notification, the history)', async () => {
    const executionId = await runElsewhere();
    const call = await duneCore();
    const opened = await call('executions:get', { accountId: 'local', executionId });
    expect(opened).toMatchObject({ ok: true, data: { state: 'QUERY_STATE_COMPLETED_PARTIAL', isFinished: true } });
    expect(opened.ok && opened.data.result?.totalRowCount).toBeGreaterThan(0);
  });

  it('is the query’s latest result on the service, partial', async () => {
    const executionId = await runElsewhere();
    const call = await duneCore();
    const latest = await call('executions:latest', { accountId: 'local', queryId });
    expect(latest).toMatchObject({
      ok: true,
      data: { source: 'service', execution: { executionId, state: 'QUERY_STATE_COMPLETED_PARTIAL' } },
    });
    expect(latest.ok && latest.data?.execution.result?.totalRowCount).toBeGreaterThan(0);

    await call('freshness:setMaxAge', { accountId: 'local', queryId, maxAgeMinutes: 60 });
    const freshness = await call('freshness:query', { accountId: 'local', queryId, parameters: {} });
    expect(freshness).toMatchObject({ ok: true, data: { latest: { executionId, state: 'QUERY_STATE_COMPLETED_PARTIAL' } } });
  });

  it('is cached only once the user agrees, and refused as partial before', async () => {
    const executionId = await runElsewhere();
    const call = await duneCore();
    const refused = await call('results:cache', { accountId: 'local', executionId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'partial_result' } });
    const cached = await call('results:cache', { accountId: 'local', executionId, allowPartial: true });
    expect(cached.ok).toBe(true);
  });
});
