import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

type Who = keyof typeof KEYS;
const as = (who: Who) => ({ headers: { 'x-dune-api-key': KEYS[who] } });
const send = (who: Who, method: string, path: string, body?: unknown) => h.post(path, body, { ...as(who), method });

async function create(who: Who, body: Record<string, unknown>): Promise<number> {
  const { status, body: reply } = await send(who, 'POST', '/api/v1/query', body);
  expect(status, JSON.stringify(reply)).toBe(200);
  return reply.query_id;
}

describe('accounts from the accounts file', () => {
  it('creates them instead of the demo account', async () => {
    expect(h.service.demoApiKey).toBeNull();
    expect((await h.get('/api/v1/queries', as('alice'))).body).toEqual({ queries: [], total: 0 });
  });
});

describe('create and read', () => {
  it('creates a query (also at /query/) and reads it back with every field', async () => {
    const id = await create('alice', {
      name: 'Top tokens',
      query_sql: "select '{{token}}' as token, {{n}} as n",
      description: 'made in a test',
      tags: ['t1'],
      parameters: [
        { key: 'token', type: 'text', value: 'WETH' },
        { key: 'n', type: 'number', value: 3 },
      ],
      query_parameters: { ignored: 'the TS client sends this; it is not a definition' },
    });
    const { body } = await h.get(`/api/v1/query/${id}`, as('alice'));
    expect(body).toEqual({
      query_id: id,
      name: 'Top tokens',
      description: 'made in a test',
      tags: ['t1'],
      version: 1,
      parameters: [
        { key: 'token', type: 'text', value: 'WETH' },
        { key: 'n', type: 'number', value: '3' },
      ],
      query_engine: 'medium',
      query_sql: "select '{{token}}' as token, {{n}} as n",
      is_private: false,
      is_archived: false,
      is_unsaved: false,
      owner: 'alice',
    });
    const slash = await send('alice', 'POST', '/api/v1/query/', { name: 'second', query_sql: 'select 1' });
    expect(slash.status).toBe(200);
    expect(slash.body.query_id).toBe(id + 1);
  });

  it('names every wrong field of a bad body', async () => {
    const { status, body } = await send('alice', 'POST', '/api/v1/query', {
      name: '',
      parameters: [{ key: 'x', type: 'colour', value: '1' }],
    });
    expect(status).toBe(400);
    expect(body.error).toMatch(/^Invalid request body payload: /);
    expect(body.error).toMatch(/name: name must not be empty/);
    expect(body.error).toMatch(/query_sql: /);
    expect(body.error).toMatch(/parameters\.0\.type: type must be one of text, number, datetime, enum/);
  });
});

describe('parameters of a created query', () => {
  it('refuses to run a placeholder without a value or a default', async () => {
    const id = await create('alice', { name: 'p', query_sql: 'select {{n}} as n' });
    const refused = await h.post(`/api/v1/query/${id}/execute`, undefined, as('alice'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('missing parameters (n): no value was given and the query has no default');
    const run = await h.post(`/api/v1/query/${id}/execute`, { query_parameters: { n: 7 } }, as('alice'));
    await h.waitUntilFinishedAs(run.body.execution_id, KEYS.alice);
    expect((await h.get(`/api/v1/execution/${run.body.execution_id}/results`, as('alice'))).body.result.rows).toEqual([{ n: 7 }]);
  });
});

describe('update', () => {
  it('changes only the given fields, counts versions, and runs the new SQL', async () => {
    const id = await create('alice', {
      name: 'v',
      query_sql: 'select 1 as x',
      tags: ['a'],
      parameters: [{ key: 'p', type: 'text', value: 'v' }],
    });
    expect(await send('alice', 'PATCH', `/api/v1/query/${id}`, { query_sql: 'select 2 as x' })).toEqual({
      status: 200,
      body: { query_id: id },
    });
    let record = (await h.get(`/api/v1/query/${id}`, as('alice'))).body;
    expect(record).toMatchObject({ query_sql: 'select 2 as x', name: 'v', tags: ['a'], version: 2 });
    expect(record.parameters).toHaveLength(1);

    await send('alice', 'PATCH', `/api/v1/query/${id}`, { tags: [], parameters: [], name: 'renamed', description: 'd' });
    record = (await h.get(`/api/v1/query/${id}`, as('alice'))).body;
    expect(record).toMatchObject({ tags: [], parameters: [], name: 'renamed', description: 'd', version: 3 });

    const run = await h.post(`/api/v1/query/${id}/execute`, undefined, as('alice'));
    const done = await h.waitUntilFinishedAs(run.body.execution_id, KEYS.alice);
    expect(done.state).toBe('QUERY_STATE_COMPLETED');
    const rows = await h.get(`/api/v1/execution/${run.body.execution_id}/results`, as('alice'));
    expect(rows.body.result.rows).toEqual([{ x: 2 }]);
  });

  it('archives: not executable nor editable until unarchived', async () => {
    const id = await create('alice', { name: 'a', query_sql: 'select 1' });
    expect((await send('alice', 'POST', `/api/v1/query/${id}/archive`)).body).toEqual({ query_id: id });
    expect((await h.get(`/api/v1/query/${id}`, as('alice'))).body.is_archived).toBe(true);
    const run = await h.post(`/api/v1/query/${id}/execute`, undefined, as('alice'));
    expect(run).toEqual({
      status: 403,
      body: { error: 'Not allowed to execute query. Query is archived, unsaved or not enough permissions' },
    });
    expect((await send('alice', 'PATCH', `/api/v1/query/${id}`, { name: 'x' })).status).toBe(403);
    await send('alice', 'POST', `/api/v1/query/${id}/unarchive`);
    expect((await h.post(`/api/v1/query/${id}/execute`, undefined, as('alice'))).status).toBe(200);
  });
});

describe('versions', () => {
  it('counts an edit that changes the query, not its flags nor a PATCH that changes nothing', async () => {
    const id = await create('alice', { name: 'kept', query_sql: 'select 1 as x', tags: ['a'] });
    const run = (await h.post(`/api/v1/query/${id}/execute`, undefined, as('alice'))).body.execution_id;
    await h.waitUntilFinishedAs(run, KEYS.alice);
    const stored = async () => (await h.get(`/api/v1/query/${id}`, as('alice'))).body;
    const listed = async () => (await h.get('/api/v1/queries?limit=1000', as('alice'))).body.queries.find((q: Json) => q.id === id);
    const before = await listed();

    for (const unchanged of [{}, { name: 'kept', tags: ['a'], query_sql: 'select 1 as x' }]) {
      expect((await send('alice', 'PATCH', `/api/v1/query/${id}`, unchanged)).status).toBe(200);
    }
    expect(await listed()).toEqual(before);
    for (const action of ['private', 'unprivate', 'archive', 'unarchive']) {
      expect((await send('alice', 'POST', `/api/v1/query/${id}/${action}`)).status).toBe(200);
    }
    await send('alice', 'PATCH', `/api/v1/query/${id}`, { is_private: true });
    expect(await stored()).toMatchObject({ version: 1, is_private: true, is_archived: false });
    expect((await h.get(`/api/v1/query/${id}/results`, as('alice'))).body.execution_id).toBe(run);

    await send('alice', 'PATCH', `/api/v1/query/${id}`, { description: 'changed', is_private: false });
    expect(await stored()).toMatchObject({ version: 2, description: 'changed', is_private: false });
    expect((await h.get(`/api/v1/query/${id}/results`, as('alice'))).status).toBe(404);
  });
});

describe('contexts and plans', () => {
  it("hides another context's private queries and their executions (404), shows public ones", async () => {
    const secret = await create('alice', { name: 's', query_sql: 'select 42 as answer', is_private: true });
    const open = await create('alice', { name: 'o', query_sql: 'select 1 as one' });
    expect(await h.get(`/api/v1/query/${secret}`, as('carol'))).toEqual({ status: 404, body: { error: 'Query not found' } });
    expect((await h.post(`/api/v1/query/${secret}/execute`, undefined, as('carol'))).status).toBe(404);
    expect((await h.get(`/api/v1/query/${open}`, as('carol'))).status).toBe(200);

    const run = (await h.post(`/api/v1/query/${secret}/execute`, undefined, as('alice'))).body.execution_id;
    await h.waitUntilFinishedAs(run, KEYS.alice);
    expect((await h.get(`/api/v1/execution/${run}/status`, as('carol'))).status).toBe(404);
    expect((await h.get(`/api/v1/execution/${run}/results`, as('carol'))).status).toBe(404);
    expect((await h.get(`/api/v1/query/${secret}/results`, as('carol'))).status).toBe(404);
    expect((await h.get(`/api/v1/query/${secret}/results`, as('alice'))).body.result.rows).toEqual([{ answer: 42 }]);

    await send('alice', 'POST', `/api/v1/query/${secret}/unprivate`);
    expect((await h.get(`/api/v1/execution/${run}/results`, as('carol'))).status).toBe(200);
    await send('alice', 'POST', `/api/v1/query/${secret}/private`);
    expect((await h.get(`/api/v1/query/${secret}`, as('carol'))).status).toBe(404);
  });

  it("lets only the owner's context manage a query", async () => {
    const id = await create('alice', { name: 'mine', query_sql: 'select 1' });
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/query/${id}`, { name: 'theirs' }],
      ['POST', `/api/v1/query/${id}/archive`, undefined],
      ['POST', `/api/v1/query/${id}/private`, undefined],
    ] as const) {
      const { status, body: reply } = await send('carol', method, path, body);
      expect(status).toBe(403);
      expect(reply.error).toMatch(/another context \('alice'\)/);
    }
  });

  it('keeps team and user contexts apart, members included', async () => {
    const teamQuery = await create('acme', { name: 'team only', query_sql: 'select 1', is_private: true });
    const mine = await create('alice', { name: 'alice only', query_sql: 'select 1', is_private: true });
    expect((await h.get(`/api/v1/query/${teamQuery}`, as('alice'))).status).toBe(404);
    expect((await send('alice', 'PATCH', `/api/v1/query/${teamQuery}`, { name: 'x' })).status).toBe(404);
    expect((await h.get(`/api/v1/query/${mine}`, as('acme'))).status).toBe(404);
    const teamList: Json = (await h.get('/api/v1/queries', as('acme'))).body;
    expect(teamList.queries.map((q: Json) => q.id)).toEqual([teamQuery]);
    expect(teamList.queries[0].owner).toBe('acme');
  });

  it('refuses the query endpoints to a free plan with 403 naming the plan, but lets it run public queries', async () => {
    const open = await create('alice', { name: 'public', query_sql: 'select 1 as x' });
    for (const [method, path] of [
      ['GET', '/api/v1/queries'],
      ['GET', `/api/v1/query/${open}`],
      ['POST', '/api/v1/query'],
      ['PATCH', `/api/v1/query/${open}`],
    ] as const) {
      const { status, body } = await send('bob', method, path, method === 'GET' ? undefined : { name: 'x', query_sql: 'select 1' });
      expect(status, `${method} ${path}`).toBe(403);
      expect(body.error).toMatch(/free plan/);
    }
    expect((await h.post(`/api/v1/query/${open}/execute`, undefined, as('bob'))).status).toBe(200);
  });
});
