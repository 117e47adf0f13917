import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_QUERIES } from '../../../../main/service/seed/demo-queries.ts';
import { OLD_DEMO_SQL } from '../../../../main/service/seed/old-demo-sql.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// A data folder an earlier version seeded holds the demo queries' SQL of then, where `/` of two
// integers meant a double: at start each gets the current text, and so its answer stays the same.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const idOf = (name: string) => DEMO_QUERIES.findIndex((query) => query.name === name) + 1;
const oldSql = (name: string) => OLD_DEMO_SQL.find(([old]) => old === name)![1];
const stored = async (name: string) => (await h.get(`/api/v1/query/${idOf(name)}`)).body;
const EDITED = 'Daily volume by chain';

it("gives the demo queries still holding an earlier version's SQL the current text, and leaves an edited one", async () => {
  for (const [name, sql] of OLD_DEMO_SQL) {
    const edited = name === EDITED ? `${sql}\n-- mine` : sql;
    expect((await h.post(`/api/v1/query/${idOf(name)}`, { query_sql: edited }, { method: 'PATCH' })).status).toBe(200);
  }
  const before = await stored('Demo trades');
  await h.restart();

  for (const [name] of OLD_DEMO_SQL.filter(([name]) => name !== EDITED)) {
    expect((await stored(name)).query_sql).toBe(DEMO_QUERIES.find((query) => query.name === name)!.sql);
  }
  expect((await stored(EDITED)).query_sql).toBe(`${oldSql(EDITED)}\n-- mine`);
  const updated = await stored('Demo trades');
  expect(updated.version).toBe(before.version + 1);

  const id = await h.execute(idOf('Demo trades'));
  expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
  const { result } = (await h.get(`/api/v1/execution/${id}/results?limit=3`)).body;
  expect(result.rows.map(({ trade_id, amount, amount_usd }: Record<string, unknown>) => ({ trade_id, amount, amount_usd }))).toEqual([
    { trade_id: 1, amount: 76.358352, amount_usd: 31705.02 },
    { trade_id: 2, amount: 17.578834, amount_usd: 18220.92 },
    { trade_id: 3, amount: 78.518982, amount_usd: 7084.99 },
  ]);

  await h.restart();
  expect((await stored('Demo trades')).version).toBe(updated.version);
});
