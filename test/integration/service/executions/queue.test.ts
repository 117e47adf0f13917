import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { DEMO_QUERY, SLOW_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ executionSlots: 1 });
});
afterAll(() => h.stop());

describe('execution slots', () => {
  it("keeps executions past the account's slots PENDING with their queue position, and cancels a waiting one", async () => {
    const slow = await h.execute(SLOW_QUERY);
    await h.waitForState(slow, 'QUERY_STATE_EXECUTING');
    const first = await h.execute(DEMO_QUERY);
    const second = await h.execute(DEMO_QUERY);

    const waiting = (await h.get(`/api/v1/execution/${second}/status`)).body;
    expect(waiting).toMatchObject({ state: 'QUERY_STATE_PENDING', is_execution_finished: false, queue_position: 2 });
    expect(waiting).not.toHaveProperty('execution_started_at');
    const running = (await h.get(`/api/v1/execution/${slow}/status`)).body;
    expect(running).toMatchObject({
      state: 'QUERY_STATE_EXECUTING',
      max_inflight_interactive_executions: 1,
      max_inflight_interactive_reached: 1,
    });
    expect(running).not.toHaveProperty('queue_position');

    expect((await h.post(`/api/v1/execution/${first}/cancel`)).body).toEqual({ success: true });
    const cancelled = (await h.get(`/api/v1/execution/${first}/status`)).body;
    expect(cancelled.state).toBe('QUERY_STATE_CANCELLED');
    expect(cancelled.cancelled_at).toMatch(/Z$/);
    expect(cancelled).not.toHaveProperty('execution_ended_at');
    expect((await h.get(`/api/v1/execution/${second}/status`)).body.queue_position).toBe(1);

    await h.post(`/api/v1/execution/${slow}/cancel`);
    expect((await h.waitUntilFinished(second)).state).toBe('QUERY_STATE_COMPLETED');
    expect((await h.get(`/api/v1/execution/${first}/status`)).body.state).toBe('QUERY_STATE_CANCELLED');
  });
});

describe("a context's waiting executions", () => {
  let bounded: Harness;
  beforeAll(async () => {
    bounded = await startHarness({ executionSlots: 1, waitingExecutions: 2, accounts: ACCOUNTS });
  });
  afterAll(() => bounded.stop());

  const sqlExecute = (key: string, sql: string) => bounded.post('/api/v1/sql/execute', { sql }, { headers: { 'x-dune-api-key': key } });

  it('refuses executions past the bound with a 429 and Retry-After, counting a burst, and leaves other contexts alone', async () => {
    const slow = await sqlExecute(KEYS.alice, 'SELECT count(*) FROM range(4000000000)');
    expect(slow.status).toBe(200);
    await waitExecuting(bounded, slow.body.execution_id, KEYS.alice);

    // ten at once: the bound holds while the executions' records are still being written
    const burst = await Promise.all(Array.from({ length: 10 }, () => fetchExecute(bounded, KEYS.alice, 'SELECT 1')));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(8);
    expect(refused[0]!.retryAfter).toBe('5');
    expect(refused[0]!.body.error).toBe(
      '2 executions of this context are already waiting to start (at most 2); try again when one has finished',
    );
    // a refused execution left no record: the context's two waiting ones are all there is
    const queued = burst.filter((r) => r.status === 200).map((r) => r.body.execution_id as string);
    for (const id of queued) {
      const { body } = await bounded.get(`/api/v1/execution/${id}/status`, { headers: { 'x-dune-api-key': KEYS.alice } });
      expect(body.state).toBe('QUERY_STATE_PENDING');
    }

    // another context is not held back by alice's backlog
    const carol = await sqlExecute(KEYS.carol, 'SELECT 42 AS answer');
    expect(carol.status).toBe(200);
    expect((await bounded.waitUntilFinishedAs(carol.body.execution_id, KEYS.carol)).state).toBe('QUERY_STATE_COMPLETED');

    // a cancelled waiting execution frees its place
    await bounded.post(`/api/v1/execution/${queued[0]}/cancel`, undefined, { headers: { 'x-dune-api-key': KEYS.alice } });
    expect((await sqlExecute(KEYS.alice, 'SELECT 2')).status).toBe(200);
    expect((await sqlExecute(KEYS.alice, 'SELECT 3')).status).toBe(429);
    await bounded.post(`/api/v1/execution/${slow.body.execution_id}/cancel`, undefined, { headers: { 'x-dune-api-key': KEYS.alice } });
  });
});

async function fetchExecute(h: Harness, key: string, sql: string) {
  const response = await fetch(`${h.service.baseUrl}/api/v1/sql/execute`, {
    method: 'POST',
    headers: { 'x-dune-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ sql }),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Json };
}

async function waitExecuting(h: Harness, id: string, key: string) {
  for (;;) {
    const { body } = await h.get(`/api/v1/execution/${id}/status`, { headers: { 'x-dune-api-key': key } });
    if (body.state === 'QUERY_STATE_EXECUTING') return;
    if (body.is_execution_finished) throw new Error(`execution finished as ${body.state} before it ran`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
