import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// No execution makes one context's private data readable by another. The rule: a context's run of
// its own query reads its private tables and every public one; a run of another context's query
// reads public tables only, since whoever may read the query may read that run's results. And a
// context's "latest results" of a query are its own runs or the owner's, never a third context's.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  const secret = await h.post('/api/v1/table/upload/csv', { table_name: 'secret', data: 'v\nacme-only\n', is_private: true }, as('acme'));
  expect(secret.status).toBe(200);
  const open = await h.post('/api/v1/table/upload/csv', { table_name: 'open', data: 'v\neveryone\n' }, as('carol'));
  expect(open.status).toBe(200);
});
afterAll(() => h.stop());

type Who = keyof typeof KEYS;
const as = (who: Who) => withApiKey(KEYS[who]);

async function createQuery(who: Who, sql: string, parameters: Json[] = []): Promise<number> {
  const created = await h.post('/api/v1/query', { name: 'q', query_sql: sql, parameters, is_private: false }, as(who));
  expect(created.status).toBe(200);
  return created.body.query_id;
}

async function run(who: Who, queryId: number, queryParameters: Json = {}): Promise<Json> {
  const started = await h.post(`/api/v1/query/${queryId}/execute`, { query_parameters: queryParameters }, as(who));
  if (started.status !== 200) return started;
  const status = await h.waitUntilFinishedAs(started.body.execution_id, KEYS[who]);
  return { ...status, execution_id: started.body.execution_id };
}

const rowsOf = async (who: Who, path: string) => (await h.get(path, as(who))).body.result?.rows;

describe('which tables an execution reads', () => {
  it("reads the owner's private tables when the owner runs its own query", async () => {
    const mine = await createQuery('acme', 'SELECT v FROM dune.acme.dataset_secret');
    const status = await run('acme', mine);
    expect(status.state).toBe('QUERY_STATE_COMPLETED');
    expect(await rowsOf('acme', `/api/v1/execution/${status.execution_id}/results`)).toEqual([{ v: 'acme-only' }]);
  });

  it("reads public tables only when another context's query runs, so no private row reaches its readers", async () => {
    // alice's public query names acme's private table; acme runs it; alice and carol then read.
    const bait = await createQuery('alice', 'SELECT v FROM dune.acme.dataset_secret');
    const status = await run('acme', bait);
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect((await h.get(`/api/v1/query/${bait}/results`, as('alice'))).status).toBe(404);
    expect((await h.get(`/api/v1/execution/${status.execution_id}/results`, as('carol'))).body.result?.rows).toBeUndefined();
    // a team member with a key of her own is another context too
    const teamQuery = await createQuery('acme', 'SELECT v FROM dune.acme.dataset_secret');
    expect((await run('alice', teamQuery)).state).toBe('QUERY_STATE_FAILED');
    // public tables stay readable by everyone's runs
    const reader = await createQuery('alice', 'SELECT v FROM dune.carol.dataset_open');
    const publicRun = await run('acme', reader);
    expect(await rowsOf('acme', `/api/v1/execution/${publicRun.execution_id}/results`)).toEqual([{ v: 'everyone' }]);
  });
});

describe('latest results', () => {
  it("never show a third context's run, whatever values it chose", async () => {
    const echo = await createQuery('alice', "SELECT '{{name}}' AS v", [{ key: 'name', type: 'text', value: 'default' }]);
    const poisoned = await run('carol', echo, { name: "x' AS v UNION ALL SELECT 'poison" });
    expect(poisoned.state).toBe('QUERY_STATE_COMPLETED');
    expect((await h.get(`/api/v1/query/${echo}/results`, as('alice'))).status).toBe(404);
    // carol sees her own run
    expect((await rowsOf('carol', `/api/v1/query/${echo}/results`))?.map((r: Json) => r.v)).toContain('poison');
    await run('alice', echo, { name: 'hello' });
    expect(await rowsOf('alice', `/api/v1/query/${echo}/results`)).toEqual([{ v: 'hello' }]);
    // acme, a third context, sees the owner's run, never carol's
    expect(await rowsOf('acme', `/api/v1/query/${echo}/results`)).toEqual([{ v: 'hello' }]);
  });
});

describe('typed parameters', () => {
  it('are checked before they go into the SQL', async () => {
    const typed = await createQuery('alice', "SELECT {{n}} AS n, '{{day}}' AS day, '{{chain}}' AS chain", [
      { key: 'n', type: 'number', value: '1' },
      { key: 'day', type: 'datetime', value: '2024-01-01 00:00:00' },
      { key: 'chain', type: 'enum', value: 'base', enumOptions: ['base', 'ethereum'] },
    ]);
    for (const [values, problem] of [
      [{ n: '1 UNION ALL SELECT 2' }, 'parameter n must be a number'],
      [{ day: "2024' OR '1" }, 'parameter day must be a date-time'],
      [{ chain: 'solana' }, 'parameter chain must be one of its options (base, ethereum)'],
    ] as const) {
      const refused = await run('alice', typed, values);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(problem);
    }
    const fine = await run('alice', typed, { n: '-2.5e3', day: '2024-02-29T10:00:00Z', chain: 'ethereum' });
    expect(fine.state).toBe('QUERY_STATE_COMPLETED');
  });
});
