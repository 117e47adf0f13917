import { QueryParameter } from '@duneanalytics/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { POLL, startClientHarness, type ClientHarness } from './client-harness.ts';

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
});
afterAll(() => h.stop());

const numbers = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i }));

describe('official client: create and update queries', () => {
  it('creates a private query and runs it with a value for its {{placeholder}}', async () => {
    const alice = h.client(KEYS.alice);
    const queryId = await alice.query.createQuery({
      name: 'numbers',
      query_sql: 'SELECT i AS n FROM range({{count}}) AS t(i) ORDER BY n',
      // the client sends these as `query_parameters`, a field the API does not have (notes §13): ignored
      query_parameters: [QueryParameter.number('count', 5)],
      is_private: true,
    });
    const record = await alice.query.readQuery(queryId);
    expect(record).toMatchObject({
      query_id: queryId,
      name: 'numbers',
      is_private: true,
      is_archived: false,
      owner: 'alice',
      parameters: [],
    });

    const run = await alice.runQuery({ queryId, query_parameters: [QueryParameter.number('count', 3)], opts: POLL });
    expect(run.result!.rows).toEqual(numbers(3));
    await expect(alice.runQuery({ queryId, opts: POLL })).rejects.toThrow(/Status: 400, Message: \{"error":"missing parameters \(count\)/);
    await expect(h.client(KEYS.acme).query.readQuery(queryId)).rejects.toThrow(/Status: 404/);
  });

  it('stops polling a query whose SQL fails, and shows the execution error', async () => {
    const alice = h.client(KEYS.alice);
    const queryId = await alice.query.createQuery({ name: 'broken', query_sql: 'SELECT nope FROM range(3)' });
    await expect(alice.runQuery({ queryId, opts: POLL })).rejects.toThrow(/incomplete terminal state .*state=QUERY_STATE_FAILED/);
    const status = await alice.refreshResults(queryId, {}, POLL.pingFrequency);
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.error).toMatchObject({ type: 'FAILED_TYPE_EXECUTION_FAILED', message: expect.stringContaining('nope') });
  });

  it('updates a query: new SQL, name and tags, a new version, and its parameter definitions kept', async () => {
    const alice = h.client(KEYS.alice);
    // parameter definitions can only be made through the API itself: the client cannot send them
    const created = await h.post(
      '/api/v1/query',
      { name: 'before', query_sql: 'SELECT {{count}} AS n', parameters: [{ key: 'count', type: 'number', value: '4' }] },
      { headers: { 'x-dune-api-key': KEYS.alice } },
    );
    const queryId: number = created.body.query_id;
    const before = await alice.query.readQuery(queryId);

    const updated = await alice.query.updateQuery(queryId, {
      name: 'after',
      query_sql: 'SELECT i AS n FROM range({{count}}) AS t(i) ORDER BY n',
      tags: ['client'],
      query_parameters: [QueryParameter.number('count', 9)],
    });
    expect(updated).toBe(queryId);
    const after = await alice.query.readQuery(queryId);
    expect(after).toMatchObject({ name: 'after', tags: ['client'], version: before.version + 1, parameters: before.parameters });
    expect(after.query_sql).toBe('SELECT i AS n FROM range({{count}}) AS t(i) ORDER BY n');

    const run = await alice.runQuery({ queryId, opts: POLL });
    expect(run.result!.rows).toEqual(numbers(4));
  });

  it('archives, unarchives, and makes a query public and private again', async () => {
    const alice = h.client(KEYS.alice);
    const queryId = await alice.query.createQuery({ name: 'flags', query_sql: 'SELECT 1 AS one' });
    expect(await alice.query.archiveQuery(queryId)).toBe(true);
    await expect(alice.runQuery({ queryId, opts: POLL })).rejects.toThrow(/Status: 403/);
    await expect(alice.query.updateQuery(queryId, { query_sql: 'SELECT 2 AS two' })).rejects.toThrow(/Status: 403/);
    expect(await alice.query.unarchiveQuery(queryId)).toBe(false);

    expect(await alice.query.makePrivate(queryId)).toBe(queryId);
    await expect(h.client(KEYS.bob).runQuery({ queryId, opts: POLL })).rejects.toThrow(/Status: 404/);
    expect(await alice.query.makePublic(queryId)).toBe(queryId);
    expect((await h.client(KEYS.bob).runQuery({ queryId, opts: POLL })).result!.rows).toEqual([{ one: 1 }]);
  });

  it('runSql creates a query, runs it and archives it after', async () => {
    const alice = h.client(KEYS.alice);
    const run = await alice.runSql({ query_sql: 'SELECT 42 AS answer', isPrivate: true, archiveAfter: true, opts: POLL });
    expect(run.result!.rows).toEqual([{ answer: 42 }]);
    expect(await alice.query.readQuery(run.query_id)).toMatchObject({ name: 'API Query', is_private: true, is_archived: true });
  });

  it("refuses query management to a free plan, and a team query to a member's own key", async () => {
    await expect(h.client(KEYS.bob).query.createQuery({ name: 'x', query_sql: 'SELECT 1' })).rejects.toThrow(
      /Status: 403, Message: .*plus or premium plan/,
    );
    const acme = h.client(KEYS.acme);
    const queryId = await acme.query.createQuery({ name: 'team query', query_sql: 'SELECT 1 AS one' });
    expect((await acme.query.readQuery(queryId)).owner).toBe('acme');
    // alice is a member of acme, but her key is her own context's
    await expect(h.client(KEYS.alice).query.updateQuery(queryId, { query_sql: 'SELECT 2 AS two' })).rejects.toThrow(/Status: 403/);
    expect(await acme.query.updateQuery(queryId, { query_sql: 'SELECT 2 AS two' })).toBe(queryId);
    expect((await acme.runQuery({ queryId, opts: POLL })).result!.rows).toEqual([{ two: 2 }]);
  });
});
