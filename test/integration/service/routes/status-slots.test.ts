import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// A status says how many of the reader's own slots are taken: a context reading another's
// execution learns nothing of how busy that context is.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

const as = (key: string) => ({ headers: { 'x-dune-api-key': key } });

describe('max_inflight_interactive_reached', () => {
  it("counts the reader's executions, not those of the context that started the one read", async () => {
    const created = await h.post(
      '/api/v1/query',
      { name: 'slow', query_sql: 'SELECT count(*) FROM range(4000000000)', is_private: false },
      as(KEYS.alice),
    );
    expect(created.status).toBe(200);
    const run = await h.post(`/api/v1/query/${created.body.query_id}/execute`, {}, as(KEYS.alice));
    expect(run.status).toBe(200);
    const id = run.body.execution_id as string;
    for (;;) {
      const { body } = await h.get(`/api/v1/execution/${id}/status`, as(KEYS.alice));
      if (body.state === 'QUERY_STATE_EXECUTING') break;
      expect(body.is_execution_finished).toBe(false);
      await new Promise((r) => setTimeout(r, 25));
    }
    try {
      expect((await h.get(`/api/v1/execution/${id}/status`, as(KEYS.alice))).body.max_inflight_interactive_reached).toBe(1);
      const read = await h.get(`/api/v1/execution/${id}/status`, as(KEYS.carol));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ state: 'QUERY_STATE_EXECUTING', max_inflight_interactive_reached: 0 });
    } finally {
      await h.post(`/api/v1/execution/${id}/cancel`, undefined, as(KEYS.alice));
    }
  });
});
