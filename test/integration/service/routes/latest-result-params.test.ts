import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../service-harness.ts';

// `params.<name>` on the latest-result endpoints picks the latest run for those values (notes §4.5);
// the Python client sends a multi-select's list as the name repeated.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function create(body: Record<string, unknown>): Promise<number> {
  const { status, body: reply } = await h.post('/api/v1/query', { name: 'p', ...body });
  expect(status, JSON.stringify(reply)).toBe(200);
  return reply.query_id;
}

async function run(id: number, query_parameters: Record<string, unknown>): Promise<void> {
  const status = await h.waitUntilFinished(await h.execute(id, { query_parameters }));
  expect(status.state).toBe('QUERY_STATE_COMPLETED');
}

describe('params.<name> repeated', () => {
  it("selects a multi-select's run by every value given, in the order given", async () => {
    const id = await create({
      query_sql: "select '{{c}}' as c",
      parameters: [{ key: 'c', type: 'enum', value: 'a', enumOptions: ['a', 'b'], isMultiselect: true }],
    });
    await run(id, { c: ['a', 'b'] });
    await run(id, { c: ['b'] });

    const both = await h.get(`/api/v1/query/${id}/results?params.c=a&params.c=b`);
    expect(both.status).toBe(200);
    expect(both.body.result.rows).toEqual([{ c: 'a,b' }]);
    expect((await h.get(`/api/v1/query/${id}/results?params.c=b`)).body.result.rows).toEqual([{ c: 'b' }]);
    const csv = await fetch(`${h.service.baseUrl}/api/v1/query/${id}/results/csv?params.c=a&params.c=b`, {
      headers: { 'x-dune-api-key': h.key },
    });
    expect(await csv.text()).toBe('c\n"a,b"\n');
  });

  it('refuses a parameter that is not a multi-select given twice, naming it', async () => {
    const id = await create({
      query_sql: "select '{{t}}' as t, '{{e}}' as e",
      parameters: [
        { key: 't', type: 'text', value: 'x' },
        { key: 'e', type: 'enum', value: 'a', enumOptions: ['a', 'b'] },
      ],
    });
    await run(id, { t: 'y' });
    for (const name of ['t', 'e']) {
      expect(await h.get(`/api/v1/query/${id}/results?params.${name}=a&params.${name}=b`)).toEqual({
        status: 400,
        body: { error: `params.${name} is given 2 times, but parameter ${name} is not a multi-select: give one value` },
      });
    }
    // a name the query does not know is unknown, however often it is given
    expect(await h.get(`/api/v1/query/${id}/results?params.z=1&params.z=2`)).toEqual({
      status: 400,
      body: { error: 'unknown parameters (z)' },
    });
  });
});
