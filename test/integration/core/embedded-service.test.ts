import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionUpdate, LocalQuery } from '../../../main/contract/index.ts';
import { createCore, type Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { createServiceClient } from '../../../main/core/service-client/index.ts';
import { startService } from '../../../main/service/index.ts';
import { memoryKeychain } from '../../unit/core/memory-keychain.ts';
import { caller, listedQueries } from './core-harness.ts';

// The core against the real embedded service over HTTP, with a small page cap so that reading
// a range has to follow the service's lowered limit.

const PAGE_CAP = 1000;
let dir: string;
let service: Awaited<ReturnType<typeof startService>>;
let core: Core;
const updates: ExecutionUpdate[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-core-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_CAP });
  core = await createCore({
    host: 'web',
    version: '0.0.0',
    localService: { baseUrl: service.baseUrl, apiKey: service.demoApiKey },
    emit: (event, payload) => {
      if (event === 'execution:update') updates.push(payload as ExecutionUpdate);
    },
    dataDir: join(dir, 'core'),
    keyVault: new KeyVault(memoryKeychain()),
  });
});

afterAll(async () => {
  await core?.dispose();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function finished(executionId: string): Promise<ExecutionUpdate> {
  for (;;) {
    const done = updates.find((u) => u.executionId === executionId && u.isFinished);
    if (done) return done;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function demoQuery(name: string): Promise<LocalQuery> {
  const query = (await listedQueries(caller(core), 'local')).find((q) => q.name === name);
  if (!query) throw new Error(`no demo query named ${name}`);
  return query;
}

describe('core against the embedded service', () => {
  it('lists the demo queries and reads one', async () => {
    const trades = await demoQuery('Demo trades');
    const detail = await core.handlers['queries:get']({ accountId: 'local', queryId: trades.id });
    expect(detail).toMatchObject({ ok: true, data: { id: trades.id, name: 'Demo trades', isArchived: false } });
    expect(detail.ok && detail.data.sql).toContain('SELECT');
  });

  it('runs the demo query, watches it complete and reads rows across the page cap', async () => {
    const trades = await demoQuery('Demo trades');
    const run = await core.handlers['executions:run']({ accountId: 'local', queryId: trades.id });
    if (!run.ok) throw new Error(run.error.message);
    const done = await finished(run.data.executionId);
    expect(done).toMatchObject({ state: 'QUERY_STATE_COMPLETED', error: null, result: { totalRowCount: 5000 } });
    expect(done.result?.columnNames).toContain('trade_id');
    const seen = updates.filter((u) => u.executionId === run.data.executionId).map((u) => u.state);
    expect(seen[0]).toBe(run.data.state);

    const page = await core.handlers['results:getRows']({
      accountId: 'local',
      executionId: run.data.executionId,
      startRow: 900,
      endRow: 3100,
    });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.data.totalRowCount).toBe(5000);
    expect(page.data.rows).toHaveLength(2200);
    const idColumn = page.data.columns.findIndex((c) => c.name === 'trade_id');
    expect(page.data.rows.map((row) => row[idColumn])).toEqual(Array.from({ length: 2200 }, (_, i) => 901 + i));
    expect(page.data.columns.map((c) => c.name)).toEqual(done.result?.columnNames);
  });

  it('reads a whole result with the page iterator, every row once and in order, at the service’s page size', async () => {
    const trades = await demoQuery('Demo trades');
    const run = await core.handlers['executions:run']({ accountId: 'local', queryId: trades.id });
    if (!run.ok) throw new Error(run.error.message);
    await finished(run.data.executionId);
    const client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
    const ids: unknown[] = [];
    let pages = 0;
    for await (const page of client.results.pages({ executionId: run.data.executionId, limit: 100_000 })) {
      if (!page.ok) throw new Error(page.error.message);
      pages += 1;
      ids.push(...(page.data.rows ?? []).map((row) => row.trade_id));
    }
    expect(pages).toBe(5000 / PAGE_CAP);
    expect(ids).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
  });

  it('cancels a slow execution', async () => {
    const slow = await demoQuery('Slow checksum');
    const run = await core.handlers['executions:run']({ accountId: 'local', queryId: slow.id });
    if (!run.ok) throw new Error(run.error.message);
    const cancelled = await core.handlers['executions:cancel']({ accountId: 'local', executionId: run.data.executionId });
    expect(cancelled).toEqual({ ok: true, data: { cancelled: true } });
    expect(await finished(run.data.executionId)).toMatchObject({ state: 'QUERY_STATE_CANCELLED', isFinished: true });
  });

  it('answers a wrong key with bad_key and the service’s message', async () => {
    const client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: 'wrong' });
    const listed = await client.queries.list();
    expect(listed).toMatchObject({ ok: false, error: { kind: 'bad_key', status: 401 } });
    expect(listed.ok ? '' : listed.error.message.length).toBeGreaterThan(0);
  });

  it('answers an unknown execution with the service’s error', async () => {
    const read = await core.handlers['executions:get']({ accountId: 'local', executionId: 'nope' });
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error.code).toMatch(/bad_request|not_found/);
  });
});
