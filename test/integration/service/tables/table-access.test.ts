import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Premium users, so that users as well as the team can keep private tables.
const ACCOUNTS = {
  accounts: [
    { handle: 'alice', type: 'user', plan: 'premium', api_keys: ['key-alice'] },
    { handle: 'bob', type: 'user', plan: 'plus', api_keys: ['key-bob'] },
    { handle: 'acme', type: 'team', plan: 'premium', members: ['alice'], api_keys: ['key-acme'] },
  ],
};
const KEYS = { alice: 'key-alice', bob: 'key-bob', acme: 'key-acme' } as const;
type Who = keyof typeof KEYS;

let h: Harness;
const sql = (who: Who, text: string): Promise<Json> => runSql(h, KEYS[who], text);
const upload = async (who: Who, table_name: string, data: string, is_private: boolean) => {
  const { status } = await h.post('/api/v1/table/upload/csv', { table_name, data, is_private }, withApiKey(KEYS[who]));
  expect(status).toBe(200);
};

/** The ways SQL could name acme's private table. */
const PROBES = [
  'select * from dune.acme.dataset_secret',
  'select * from acme.dataset_secret',
  "select * from query_table('dune.acme.dataset_secret')",
  "select * from query_table(['dune.acme.dataset_secret'])",
  "select * from query('select * from dune.acme.dataset_secret')",
];

/** Expects the SQL to fail, reaching no data. */
async function refused(who: Who, text: string) {
  const status = await sql(who, text);
  expect(status.state, `${who}: ${text}`).toBe('QUERY_STATE_FAILED');
  expect(status.error.message, `${who}: ${text}`).toMatch(/does not exist|query\(\) is not available/);
}

beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  await upload('acme', 'secret', 'code\nacme-only\n', true);
  await upload('acme', 'prices', 'token,price\nWETH,2300\n', false);
  await upload('alice', 'diary', 'entry\nalice-only\n', true);
});
afterAll(() => h.stop());

describe('tables in SQL, by context', () => {
  it('the owner reads its private table', async () => {
    expect(await sql('acme', 'select * from dune.acme.dataset_secret')).toEqual([{ code: 'acme-only' }]);
    expect(await sql('acme', "select * from query_table('dune.acme.dataset_secret')")).toEqual([{ code: 'acme-only' }]);
    expect(await sql('alice', 'select * from dune.alice.dataset_diary')).toEqual([{ entry: 'alice-only' }]);
  });

  it('a member of a team reaches none of its private tables, however the SQL names them', async () => {
    for (const text of PROBES) await refused('alice', text);
    // nor does the catalog show it
    const listed = await sql(
      'alice',
      'select table_name from duckdb_tables() union all select view_name from duckdb_views() where not internal',
    );
    expect(listed.map((r: Json) => r.table_name)).not.toContain('dataset_secret');
    expect(JSON.stringify(await sql('alice', 'select * from duckdb_databases()'))).not.toMatch(/secret/);
  });

  it("another user reaches neither a user's nor a team's private tables", async () => {
    await refused('bob', 'select * from dune.alice.dataset_diary');
    await refused('bob', "select * from query_table('dune.alice.dataset_diary')");
    for (const text of PROBES) await refused('bob', text);
  });

  it("the team does not reach its member's private tables", async () => {
    await refused('acme', 'select * from dune.alice.dataset_diary');
  });

  it('everyone reads public tables of others', async () => {
    for (const who of ['alice', 'bob'] as const) {
      expect(await sql(who, 'select * from dune.acme.dataset_prices')).toEqual([{ token: 'WETH', price: 2300 }]);
    }
  });

  it('a table made private is no longer readable by others', async () => {
    await upload('acme', 'flip', 'v\n1\n', false);
    expect(await sql('bob', 'select * from dune.acme.dataset_flip')).toEqual([{ v: 1 }]);
    await upload('acme', 'flip', 'v\n2\n', true);
    await refused('bob', 'select * from dune.acme.dataset_flip');
    expect(await sql('acme', 'select * from dune.acme.dataset_flip')).toEqual([{ v: 2 }]);
  });

  it('cancel still interrupts a running execution', async () => {
    const key = withApiKey(KEYS.alice);
    const created = await h.post(
      '/api/v1/query',
      { name: 'slow', query_sql: 'select sum(hash(i) % 1000) as s from range(3000000000) as t(i)' },
      key,
    );
    const run = await h.post(`/api/v1/query/${created.body.query_id}/execute`, undefined, key);
    const id = run.body.execution_id;
    for (;;) {
      const { body } = await h.get(`/api/v1/execution/${id}/status`, key);
      if (body.state === 'QUERY_STATE_EXECUTING') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const asked = Date.now();
    expect((await h.post(`/api/v1/execution/${id}/cancel`, undefined, key)).body).toEqual({ success: true });
    expect((await h.waitUntilFinishedAs(id, KEYS.alice)).state).toBe('QUERY_STATE_CANCELLED');
    expect(Date.now() - asked).toBeLessThan(5_000);
  });

  it('a restart keeps the tables and who may read them', async () => {
    await h.restart();
    expect(await sql('acme', 'select * from dune.acme.dataset_secret')).toEqual([{ code: 'acme-only' }]);
    expect(await sql('bob', 'select * from dune.acme.dataset_prices')).toEqual([{ token: 'WETH', price: 2300 }]);
    await refused('alice', PROBES[0]!);
  });
});

describe('a data directory of the former layout, all tables in tables.duckdb', () => {
  it('is converted at start into a file per table, with the same data and the same access', async () => {
    await h.service.close();
    // rebuild what the former service kept: every table in one file, under schema = handle
    const shared = await DuckDBInstance.create(join(h.dataDir, 'tables.duckdb'));
    const c = await shared.connect();
    await c.run(
      `CREATE SCHEMA acme; CREATE TABLE acme.dataset_secret (code VARCHAR NOT NULL); INSERT INTO acme.dataset_secret VALUES ('old-secret')`,
    );
    c.closeSync();
    shared.closeSync();
    const meta = await DuckDBInstance.create(join(h.dataDir, 'service.duckdb'));
    const m = await meta.connect();
    await m.run(`UPDATE uploaded_tables SET file = NULL WHERE namespace = 'acme' AND table_name = 'dataset_secret'`);
    m.closeSync();
    meta.closeSync();

    await h.restart();
    expect(existsSync(join(h.dataDir, 'tables.duckdb.converted'))).toBe(true);
    expect(existsSync(join(h.dataDir, 'tables.duckdb'))).toBe(false);
    expect(await sql('acme', 'select * from dune.acme.dataset_secret')).toEqual([{ code: 'old-secret' }]);
    const listed = (await h.get('/api/v1/tables', withApiKey(KEYS.acme))).body.tables;
    expect(listed.find((t: Json) => t.full_name === 'dune.acme.dataset_secret').columns).toEqual([
      { name: 'code', type: 'varchar', nullable: false, metadata: {} },
    ]);
    await refused('alice', PROBES[0]!);
    expect(await sql('alice', 'select * from dune.alice.dataset_diary')).toEqual([{ entry: 'alice-only' }]);
  });
});
