import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionStore, STATE } from '../../../../main/service/executions/execution-store.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';
import { META_SCHEMA } from '../../../../main/service/storage/meta-schema.ts';

// Completed executions are kept in memory, as every read of a result asks for one. What is kept
// must never outlive the expiry that ends it, even one that comes while a read is under way.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-kept-executions-'));
let db: Database;
let store: ExecutionStore;
let next = 0;

const summary = { columnNames: ['a'], columnTypes: ['INTEGER'], rowCount: 1, bytes: 4, pendingMillis: 1, executionMillis: 2 };

async function completed(): Promise<string> {
  const id = `01TEST${String(++next).padStart(20, '0')}`;
  await store.insert({ id, queryId: null, accountId: 1, parameters: {}, performance: 'medium', submittedAt: '2026-01-01T00:00:00.000Z' });
  await store.markExecuting(id, '2026-01-01T00:00:01.000Z');
  await store.complete(id, STATE.completed, '2026-01-01T00:00:02.000Z', '2026-04-01T00:00:02.000Z', summary);
  return id;
}

beforeAll(async () => {
  db = await Database.open(join(dir, 'meta.duckdb'), META_SCHEMA);
  store = new ExecutionStore(db);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('completed executions kept in memory', () => {
  it('answer as read, and as expired once expired', async () => {
    const id = await completed();
    expect((await store.get(id))?.state).toBe(STATE.completed);
    expect((await store.get(id))?.result).toMatchObject({ rowCount: 1 });
    expect(await store.expire(id, '2026-05-01T00:00:00.000Z')).toBe(true);
    expect((await store.get(id))?.state).toBe(STATE.expired);
  });

  it('are not kept from a read that was under way when the execution expired', async () => {
    // which of the two DuckDB finishes first varies: enough rounds see both orders
    for (let round = 0; round < 30; round++) {
      const id = await completed();
      const reading = store.get(id);
      const expiring = store.expire(id, '2026-05-01T00:00:00.000Z');
      await Promise.all([reading, expiring]);
      expect((await store.get(id))?.state, `round ${round}`).toBe(STATE.expired);
    }
  });

  it('are frozen, so that no caller changes what the next one reads', async () => {
    const id = await completed();
    await store.get(id);
    const kept = await store.get(id);
    expect(Object.isFrozen(kept)).toBe(true);
  });
});
