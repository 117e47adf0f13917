import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryDetail, QueryEdit } from '../../../main/contract/index.ts';
import type { Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { caller, listedQueries, memoryKeychain, startHarness, type Harness } from './core-harness.ts';

// Creating and editing queries through core against the embedded service, and the service's
// refusals (plan, context, archived) passed through in its own words.

const keys = { alice: 'alice-key-0000-1111', bob: 'bob-key-2222-3333', freebie: 'freebie-key-4444-5555' };
let harness: Harness;
let call: ReturnType<typeof caller>;
const ids = { alice: '', bob: '' };

beforeAll(async () => {
  harness = await startHarness({
    accounts: {
      accounts: [
        { handle: 'alice', type: 'user', plan: 'plus', api_keys: [keys.alice] },
        { handle: 'bob', type: 'user', plan: 'premium', api_keys: [keys.bob] },
        { handle: 'freebie', type: 'user', plan: 'free', api_keys: [keys.freebie] },
      ],
    },
  });
  const core: Core = await harness.startCore({ keyVault: new KeyVault(memoryKeychain()) });
  call = caller(core);
  for (const name of ['alice', 'bob'] as const) {
    const added = await call('accounts:add', { label: name, baseUrl: harness.baseUrl, apiKey: keys[name] });
    if (!added.ok) throw new Error(added.error.message);
    ids[name] = added.data.id;
  }
});

afterAll(async () => {
  await harness?.close();
});

async function createdQuery(): Promise<QueryDetail> {
  const created = await call('queries:create', { accountId: ids.alice, name: 'Scratch', sql: 'SELECT 1 AS one' });
  if (!created.ok) throw new Error(created.error.message);
  return created.data;
}

/** A save from the query's version as last read, as the editor sends it. */
async function save(accountId: string, query: Pick<QueryDetail, 'id' | 'version'>, edit: QueryEdit) {
  const saved = await call('queries:save', { accountId, queryId: query.id, baseVersion: query.version, edit });
  if (!saved.ok) return saved;
  if (saved.data.status !== 'saved') throw new Error(`the save was ${saved.data.status}`);
  return { ok: true as const, data: saved.data.query };
}

describe('query management through core', () => {
  const bigTrades = {
    name: 'Big trades',
    sql: 'SELECT {{min}} AS floor',
    description: 'Trades above a floor',
    tags: ['trades', 'demo'],
    parameters: [{ key: 'min', type: 'number' as const, value: '1000', description: 'USD' }],
    isPrivate: true,
  };

  it('creates a query with every field and answers it as saved', async () => {
    const created = await call('queries:create', { ...bigTrades, accountId: ids.alice });
    expect(created).toMatchObject({ ok: true, data: { ...bigTrades, isArchived: false, owner: 'alice' } });
    expect((await listedQueries(call, ids.alice)).map((q) => q.name)).toContain('Big trades');
  });

  it('updates only the fields given, moves the version on, and removes tags with an empty list', async () => {
    const before = await createdQuery();
    const queryId = before.id;
    const updated = await save(ids.alice, before, { sql: 'SELECT 2 AS two', name: 'Scratch 2' });
    expect(updated).toMatchObject({
      ok: true,
      data: { id: queryId, name: 'Scratch 2', sql: 'SELECT 2 AS two', description: before.description },
    });
    if (!updated.ok) throw new Error(updated.error.message);
    expect(updated.data.version).toBeGreaterThan(before.version);

    const tagged = await save(ids.alice, updated.data, { tags: ['x'] });
    if (!tagged.ok) throw new Error(tagged.error.message);
    expect(tagged.data.tags).toEqual(['x']);
    expect(await save(ids.alice, tagged.data, { tags: [] })).toMatchObject({ ok: true, data: { tags: [], sql: 'SELECT 2 AS two' } });
  });

  it('passes the service’s refusals through in its own words', async () => {
    const query = await createdQuery();
    const queryId = query.id;
    const otherContext = await save(ids.bob, query, { sql: 'SELECT 3' });
    expect(otherContext).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message: `not enough permissions: query ${queryId} belongs to another context ('alice')`,
        details: { status: 403 },
      },
    });

    const archive = await fetch(`${harness.baseUrl}/api/v1/query/${queryId}/archive`, {
      method: 'POST',
      headers: { 'X-DUNE-API-KEY': keys.alice },
    });
    expect(archive.status).toBe(200);
    // the save starts from the query as read after the archive
    const current = await call('queries:get', { accountId: ids.alice, queryId });
    if (!current.ok) throw new Error(current.error.message);
    const archived = await save(ids.alice, current.data, { sql: 'SELECT 4' });
    expect(archived).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: `query ${queryId} is archived and cannot be edited; unarchive it first` },
    });

    const missing = await save(ids.alice, { id: 987654, version: 1 }, { name: 'x' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', message: 'Query not found' } });

    const duplicate = await call('queries:create', {
      accountId: ids.alice,
      name: 'Twice',
      sql: 'SELECT {{a}}',
      parameters: [
        { key: 'a', type: 'text', value: '1' },
        { key: 'a', type: 'text', value: '2' },
      ],
    });
    expect(duplicate).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(duplicate.ok ? '' : duplicate.error.message).toContain('parameter keys must be unique');
  });

  // A free plan's key is accepted (the service knows it), but the query endpoints refuse it.
  it('passes the plan refusal through for a free account', async () => {
    const free = await call('accounts:add', { label: 'free', baseUrl: harness.baseUrl, apiKey: keys.freebie });
    if (!free.ok) throw new Error(free.error.message);
    const created = await call('queries:create', { accountId: free.data.id, name: 'Mine', sql: 'SELECT 1' });
    expect(created).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(created.ok ? '' : created.error.message).toContain(
      "query endpoints need a plus or premium plan; the account 'freebie' is on the free plan",
    );
  });
});
