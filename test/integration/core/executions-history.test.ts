import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { createServiceClient, type QueryListItem } from '../../../main/core/service-client/index.ts';
import { caller, memoryKeychain, startHarness, type Harness } from './core-harness.ts';

// Executions the app started are remembered per account, and one still running when core closes
// is watched again by the next core on the same data folder. Against the embedded service.

let harness: Harness;

const newCore = () => harness.startCore({ keyVault: new KeyVault(memoryKeychain()) });

// Only its id is needed, read from the service directly.
async function demoQuery(name: string, on: Harness = harness): Promise<QueryListItem> {
  const listed = await createServiceClient({ baseUrl: on.baseUrl, serviceName: 'DUNE', apiKey: on.demoApiKey ?? '' }).queries.list();
  const query = listed.ok ? listed.data.queries.find((q) => q.name === name) : undefined;
  if (!query) throw new Error(`no demo query named ${name}`);
  return query;
}

async function run(call: ReturnType<typeof caller>, queryId: number, parameters?: Record<string, string>): Promise<string> {
  const started = await call('executions:run', { accountId: 'local', queryId, parameters });
  if (!started.ok) throw new Error(started.error.message);
  return started.data.executionId;
}

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('the execution history', () => {
  it('keeps each run with its parameters, state and times, newest first, in a file', async () => {
    const call = caller(await newCore());
    const daily = await demoQuery('Daily volume by chain');
    const first = await run(call, daily.id, { chain: 'base', min_usd: '500' });
    await harness.finishedUpdate(first);
    const second = await run(call, daily.id, { chain: 'optimism', min_usd: '100' });
    const done = await harness.finishedUpdate(second);

    const listed = await call('executions:list', { accountId: 'local' });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.data.executions.map((e) => e.executionId).slice(0, 2)).toEqual([second, first]);
    expect(listed.data.executions[0]).toMatchObject({
      accountId: 'local',
      queryId: daily.id,
      parameters: { chain: 'optimism', min_usd: '100' },
      state: 'QUERY_STATE_COMPLETED',
      isFinished: true,
      error: null,
      totalRowCount: done.result?.totalRowCount,
    });
    const record = listed.data.executions[0]!;
    expect(Date.parse(record.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(record.submittedAt));
    expect(await call('executions:list', { accountId: 'local', limit: 1 })).toMatchObject({
      ok: true,
      data: { executions: [{ executionId: second }] },
    });
    expect(await call('executions:list', { accountId: 'someone-else' })).toEqual({ ok: true, data: { executions: [] } });

    const lines = readFileSync(join(harness.coreDir, 'runs.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { executionId: string }).executionId)).toContain(first);
  });

  it('runs edited SQL text through /sql/execute, kept in the history of the tab that ran it with its text', async () => {
    const call = caller(await newCore());
    const daily = await demoQuery('Daily volume by chain');
    const sql = "select 'edited' as what, 2 * 21 as n";
    const started = await call('executions:runSql', { accountId: 'local', queryId: daily.id, sql, parameters: { chain: 'base' } });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.data.queryId).toBe(daily.id);
    const done = await harness.finishedUpdate(started.data.executionId);
    expect(done).toMatchObject({ state: 'QUERY_STATE_COMPLETED', result: { totalRowCount: 1 } });
    const rows = await call('results:getRows', { accountId: 'local', executionId: started.data.executionId, startRow: 0, endRow: 10 });
    expect(rows).toMatchObject({ ok: true, data: { rows: [['edited', 42]] } });
    const listed = await call('executions:list', { accountId: 'local', limit: 1 });
    expect(listed).toMatchObject({
      ok: true,
      data: { executions: [{ executionId: started.data.executionId, queryId: daily.id, sql, parameters: { chain: 'base' } }] },
    });
    // a refusal by the service comes back as a value, and nothing is remembered
    const refused = await call('executions:runSql', { accountId: 'nobody', queryId: daily.id, sql });
    expect(refused.ok).toBe(false);
  });

  it("runs a scratch tab's SQL as no query's, and remembers it under 0 as the service does", async () => {
    const call = caller(await newCore());
    const started = await call('executions:runSql', { accountId: 'local', queryId: null, sql: 'select 7 as n' });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.data.queryId).toBe(0);
    await harness.finishedUpdate(started.data.executionId);
    const listed = await call('executions:list', { accountId: 'local', limit: 1 });
    expect(listed).toMatchObject({
      ok: true,
      data: { executions: [{ executionId: started.data.executionId, queryId: 0, sql: 'select 7 as n' }] },
    });
    // the id of no query stays refused
    expect(await call('executions:runSql', { accountId: 'local', queryId: 0, sql: 'select 1' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });

  it('finds every run by the words of its query, SQL, values, account and state', async () => {
    const call = caller(await newCore());
    const daily = await demoQuery('Daily volume by chain');
    expect((await call('queries:get', { accountId: 'local', queryId: daily.id })).ok).toBe(true);
    const saved = await run(call, daily.id, { chain: 'arbitrum', min_usd: '250' });
    await harness.finishedUpdate(saved);
    const scratch = await call('executions:runSql', { accountId: 'local', queryId: null, sql: "select 'needle in history' as what" });
    if (!scratch.ok) throw new Error(scratch.error.message);
    await harness.finishedUpdate(scratch.data.executionId);

    const byText = await call('executions:history', { text: 'NEEDLE history' });
    expect(byText).toMatchObject({
      ok: true,
      data: {
        total: 1,
        skipped: 0,
        entries: [{ executionId: scratch.data.executionId, queryId: 0, queryName: null, isEdited: true, rows: 1 }],
      },
    });
    const byQuery = await call('executions:history', { text: 'daily chain=arbitrum completed local', accountId: 'local' });
    if (!byQuery.ok) throw new Error(byQuery.error.message);
    expect(byQuery.data.entries[0]).toMatchObject({
      executionId: saved,
      queryName: 'Daily volume by chain',
      isEdited: false,
      parameters: { chain: 'arbitrum', min_usd: '250' },
      state: 'QUERY_STATE_COMPLETED',
      accountName: expect.any(String),
    });
    expect(byQuery.data.entries[0]!.sql).toContain('{{chain}}');
    expect(byQuery.data.entries[0]!.datapoints).toBe(byQuery.data.entries[0]!.rows! * 3);
    expect(byQuery.data.entries[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(await call('executions:history', { text: 'needle', accountId: 'someone-else' })).toEqual({
      ok: true,
      data: { entries: [], total: 0, skipped: 0 },
    });
    expect(await call('executions:history', { text: 'x'.repeat(501) })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('tells the host when a run ends, and whether the UI was showing it', async () => {
    const call = caller(await newCore());
    const slow = await demoQuery('Slow checksum');
    const daily = await demoQuery('Daily volume by chain');

    const watched = await run(call, slow.id);
    expect(await call('executions:viewing', { viewing: { accountId: 'local', executionId: watched } })).toEqual({ ok: true, data: {} });
    await call('executions:cancel', { accountId: 'local', executionId: watched });
    await harness.finishedUpdate(watched);

    const unwatched = await run(call, daily.id, { chain: 'base', min_usd: '1' });
    await harness.finishedUpdate(unwatched);
    expect(harness.finished.find((f) => f.record.executionId === watched)).toMatchObject({
      isViewed: true,
      record: { state: 'QUERY_STATE_CANCELLED' },
    });
    expect(harness.finished.find((f) => f.record.executionId === unwatched)).toMatchObject({
      isViewed: false,
      record: { state: 'QUERY_STATE_COMPLETED' },
    });
    expect(harness.finished.filter((f) => f.record.executionId === unwatched)).toHaveLength(1);
  });

  it('watches a run again after a restart until it ends', async () => {
    const first = await newCore();
    const slow = await demoQuery('Slow checksum');
    const executionId = await run(caller(first), slow.id);
    await first.dispose();
    const seenBefore = harness.updates.length;

    const second: Core = await newCore();
    // Ended behind the app's back: only the new core's own watching can notice.
    const client = createServiceClient({ baseUrl: harness.baseUrl, serviceName: 'DUNE', apiKey: harness.demoApiKey ?? '' });
    expect(await client.executions.cancel(executionId)).toEqual({ ok: true, data: true });
    const ended = await harness.finishedUpdate(executionId);
    expect(harness.updates.indexOf(ended)).toBeGreaterThanOrEqual(seenBefore);
    expect(ended).toMatchObject({ state: 'QUERY_STATE_CANCELLED', isFinished: true });

    const listed = await caller(second)('executions:list', { accountId: 'local', limit: 1 });
    expect(listed).toMatchObject({ ok: true, data: { executions: [{ executionId, state: 'QUERY_STATE_CANCELLED', isFinished: true }] } });
    expect(harness.finished.some((f) => f.record.executionId === executionId)).toBe(true);
  });
});

describe('a partial result', () => {
  let partial: Harness;
  afterAll(async () => {
    await partial?.close();
  });

  it('is read only when the request allows it', async () => {
    partial = await startHarness({ resultCapBytes: 20_000 });
    const call = caller(await partial.startCore({ keyVault: new KeyVault(memoryKeychain()) }));
    const trades = await demoQuery('Demo trades', partial);
    const started = await call('executions:run', { accountId: 'local', queryId: trades.id });
    if (!started.ok) throw new Error(started.error.message);
    const done = await partial.finishedUpdate(started.data.executionId);
    expect(done.state).toBe('QUERY_STATE_COMPLETED_PARTIAL');

    const range = { accountId: 'local', executionId: started.data.executionId, startRow: 0, endRow: 50 };
    const refused = await call('results:getRows', range);
    expect(refused).toMatchObject({ ok: false, error: { code: 'partial_result' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/^This result is partial/);

    const allowed = await call('results:getRows', { ...range, allowPartial: true });
    expect(allowed).toMatchObject({ ok: true, data: { isPartial: true, startRow: 0 } });
    expect(allowed.ok && allowed.data.rows).toHaveLength(50);
  });
});
