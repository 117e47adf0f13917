import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Two executions run at once in the service and each context may run three: a context that fills
// both must not keep another context waiting behind its backlog until its executions' time limits.

/** A cross join that runs for hours unless stopped, with next to no memory. */
const LONG_SQL = 'SELECT count(*) AS n FROM range(1000000) a, range(1000000) b WHERE a.range * b.range = 7';

let h: Harness;
beforeAll(async () => {
  // libuv's default pool of 4 keeps two threads for requests and leaves no room for a newcomer's slot
  h = await startHarness({ accounts: ACCOUNTS, runningExecutions: 2, executionSlots: 3 });
});
afterAll(() => h.stop());

const as = (key: string) => ({ headers: { 'x-dune-api-key': key } });

async function runSql(key: string, sql: string, harness = h): Promise<string> {
  const { status, body } = await harness.post('/api/v1/sql/execute', { sql }, as(key));
  if (status !== 200) throw new Error(`execute answered ${status}: ${JSON.stringify(body)}`);
  return body.execution_id as string;
}

const statusOf = async (id: string, key: string, harness = h): Promise<Json> =>
  (await harness.get(`/api/v1/execution/${id}/status`, as(key))).body;

async function waitForStateAs(id: string, key: string, state: string, harness = h): Promise<Json> {
  for (;;) {
    const body = await statusOf(id, key, harness);
    if (body.state === state) return body;
    if (body.is_execution_finished) throw new Error(`finished as ${body.state} before reaching ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('running slots shared by contexts', () => {
  it('go to a context alone up to the limit, and the next one that frees to the context that waits', async () => {
    const alice = [await runSql(KEYS.alice, LONG_SQL), await runSql(KEYS.alice, LONG_SQL), await runSql(KEYS.alice, LONG_SQL)];
    const carol: string[] = [];
    try {
      // alone, alice runs as many as the service does
      await waitForStateAs(alice[0]!, KEYS.alice, 'QUERY_STATE_EXECUTING');
      await waitForStateAs(alice[1]!, KEYS.alice, 'QUERY_STATE_EXECUTING');
      expect(await statusOf(alice[2]!, KEYS.alice)).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });

      // carol, running nothing, comes after alice's third but takes the next free slot before it
      carol.push(await runSql(KEYS.carol, LONG_SQL));
      expect(await statusOf(carol[0]!, KEYS.carol)).toMatchObject({
        state: 'QUERY_STATE_PENDING',
        queue_position: 1,
        max_inflight_interactive_reached: 0,
      });
      expect((await statusOf(alice[2]!, KEYS.alice)).queue_position).toBe(2);

      expect((await h.post(`/api/v1/execution/${alice[0]}/cancel`, undefined, as(KEYS.alice))).body).toEqual({ success: true });
      await waitForStateAs(carol[0]!, KEYS.carol, 'QUERY_STATE_EXECUTING');
      // both slots are held, one each: alice's third is next
      expect(await statusOf(alice[2]!, KEYS.alice)).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });

      // running one each, the two take turns in the order they came
      carol.push(await runSql(KEYS.carol, LONG_SQL));
      expect((await statusOf(carol[1]!, KEYS.carol)).queue_position).toBe(2);
      expect((await h.post(`/api/v1/execution/${carol[0]}/cancel`, undefined, as(KEYS.carol))).body).toEqual({ success: true });
      // carol now runs nothing: her second goes before alice's third, which came first
      await waitForStateAs(carol[1]!, KEYS.carol, 'QUERY_STATE_EXECUTING');
      expect(await statusOf(alice[2]!, KEYS.alice)).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });
    } finally {
      for (const id of alice) await h.post(`/api/v1/execution/${id}/cancel`, undefined, as(KEYS.alice));
      for (const id of carol) await h.post(`/api/v1/execution/${id}/cancel`, undefined, as(KEYS.carol));
    }
  });

  it('start one more, past the limit, for a context that runs nothing while another holds them all', async () => {
    // as the hosts size libuv's pool (see size-thread-pool.ts): room for one more beside the requests' threads
    const pool = process.env.UV_THREADPOOL_SIZE;
    process.env.UV_THREADPOOL_SIZE = '16';
    const spare = await startHarness({ accounts: ACCOUNTS, runningExecutions: 2, executionSlots: 3 }).finally(() => {
      if (pool === undefined) delete process.env.UV_THREADPOOL_SIZE;
      else process.env.UV_THREADPOOL_SIZE = pool;
    });
    const started: [string, string][] = [];
    const run = async (key: string) => {
      const id = await runSql(key, LONG_SQL, spare);
      started.push([id, key]);
      return id;
    };
    try {
      const alice = [await run(KEYS.alice), await run(KEYS.alice), await run(KEYS.alice)];
      await waitForStateAs(alice[0]!, KEYS.alice, 'QUERY_STATE_EXECUTING', spare);
      await waitForStateAs(alice[1]!, KEYS.alice, 'QUERY_STATE_EXECUTING', spare);
      expect(await statusOf(alice[2]!, KEYS.alice, spare)).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });

      // carol runs nothing: hers starts at once, without waiting for one of alice's long statements to end
      const carol = await run(KEYS.carol);
      await waitForStateAs(carol, KEYS.carol, 'QUERY_STATE_EXECUTING', spare);
      expect(await statusOf(alice[2]!, KEYS.alice, spare)).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });

      // one more at most: bob, running nothing too, waits, first in turn
      const bob = await run(KEYS.bob);
      expect(await statusOf(bob, KEYS.bob, spare)).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });
      expect((await statusOf(alice[2]!, KEYS.alice, spare)).queue_position).toBe(2);
    } finally {
      for (const [id, key] of started) await spare.post(`/api/v1/execution/${id}/cancel`, undefined, as(key));
      await spare.stop();
    }
  });
});
