import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUERY, SLOW_QUERY, startHarness, type Harness } from '../service-harness.ts';

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
