import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUERY, SLOW_QUERY, startHarness, type Harness } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

describe('cancel', () => {
  it('interrupts a running execution and reads as CANCELLED afterwards', async () => {
    const id = await h.execute(SLOW_QUERY);
    await h.waitForState(id, 'QUERY_STATE_EXECUTING');
    expect(await h.post(`/api/v1/execution/${id}/cancel`)).toEqual({ status: 200, body: { success: true } });

    const status = await h.waitUntilFinished(id);
    expect(status.state).toBe('QUERY_STATE_CANCELLED');
    expect(status.cancelled_at).toMatch(/Z$/);
    expect(status.execution_ended_at).toMatch(/Z$/);
    expect(status).not.toHaveProperty('result_metadata');
    const { body: results } = await h.get(`/api/v1/execution/${id}/results`);
    expect(results.state).toBe('QUERY_STATE_CANCELLED');
    expect(results).not.toHaveProperty('result');

    expect(await h.post(`/api/v1/execution/${id}/cancel`)).toEqual({ status: 200, body: { success: false } });
  });

  it('cancels a finished execution with success false and leaves it as it was', async () => {
    const id = await h.execute(DEMO_QUERY);
    await h.waitUntilFinished(id);
    expect((await h.post(`/api/v1/execution/${id}/cancel`)).body).toEqual({ success: false });
    expect((await h.get(`/api/v1/execution/${id}/status`)).body.state).toBe('QUERY_STATE_COMPLETED');
  });

  it('answers an unknown execution id with 400', async () => {
    const { status, body } = await h.post('/api/v1/execution/unknown/cancel');
    expect(status).toBe(400);
    expect(body.error).toBe('The requested execution ID (ID: unknown) is invalid.');
  });
});

describe('restart', () => {
  it('keeps queries, executions and results', async () => {
    const id = await h.execute(DEMO_QUERY);
    await h.waitUntilFinished(id);
    const before = await h.get(`/api/v1/execution/${id}/results?limit=50&offset=100`);
    const queriesBefore = await h.get('/api/v1/queries');

    await h.restart();

    expect(await h.get('/api/v1/queries')).toEqual(queriesBefore);
    const after = await h.get(`/api/v1/execution/${id}/results?limit=50&offset=100`);
    expect(after.status).toBe(200);
    expect(after.body.result).toEqual(before.body.result);
    expect(after.body.next_uri.replace(/:\d+\//, ':P/')).toBe(before.body.next_uri.replace(/:\d+\//, ':P/'));
  });

  it('marks an execution that was running when the service stopped as FAILED, saying why', async () => {
    const id = await h.execute(SLOW_QUERY);
    await h.waitForState(id, 'QUERY_STATE_EXECUTING');

    await h.restart();

    const { body } = await h.get(`/api/v1/execution/${id}/status`);
    expect(body.state).toBe('QUERY_STATE_FAILED');
    expect(body.is_execution_finished).toBe(true);
    expect(body.error.message).toMatch(/service stopped/);
  });
});
