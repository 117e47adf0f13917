import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMETER_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function rowsOf(executionId: string): Promise<Json[]> {
  const { body } = await h.get(`/api/v1/execution/${executionId}/results`);
  return body.result.rows;
}

describe('parameters', () => {
  it('substitutes given values as text', async () => {
    const id = await h.execute(PARAMETER_QUERY, { query_parameters: { chain: 'base', min_usd: 0 } });
    expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
    const rows = await rowsOf(id);
    // the demo generator puts every fifth trade (1,000 of 5,000) on base
    expect(rows.reduce((sum, r) => sum + r.trades, 0)).toBe(1000);
  });

  it("falls back to the query's defaults for values not given", async () => {
    const all = await h.execute(PARAMETER_QUERY, { query_parameters: { min_usd: '0' } });
    const bigOnly = await h.execute(PARAMETER_QUERY);
    await h.waitUntilFinished(all);
    await h.waitUntilFinished(bigOnly);
    const count = (rows: Json[]) => rows.reduce((sum, r) => sum + r.trades, 0);
    expect(count(await rowsOf(all))).toBe(1000); // ethereum, every size
    expect(count(await rowsOf(bigOnly))).toBeLessThan(1000); // ethereum, at least 1000 USD
  });

  it('refuses an unknown parameter name with the real message', async () => {
    const { status, body } = await h.post(`/api/v1/query/${PARAMETER_QUERY}/execute`, {
      query_parameters: { chain: 'base', nope: 1 },
    });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'unknown parameters (nope)' });
  });

  it('reads the body as JSON whatever the content type, and accepts an empty body', async () => {
    const response = await fetch(`${h.service.baseUrl}/api/v1/query/${PARAMETER_QUERY}/execute`, {
      method: 'POST',
      headers: { 'x-dune-api-key': h.key, 'content-type': 'text/plain' },
      body: JSON.stringify({ query_parameters: { nope: 'x' } }),
    });
    expect(response.status).toBe(400);
    expect((await h.post(`/api/v1/query/${PARAMETER_QUERY}/execute`)).status).toBe(200);
    const broken = await h.post(`/api/v1/query/${PARAMETER_QUERY}/execute`, undefined, { body: '{not json' });
    expect(broken).toEqual({ status: 400, body: { error: 'Invalid request body payload' } });
  });

  it('refuses a performance other than medium or large', async () => {
    const { status, body } = await h.post(`/api/v1/query/${PARAMETER_QUERY}/execute`, { performance: 'huge' });
    expect(status).toBe(400);
    expect(body.error).toMatch(/performance/);
    expect((await h.post(`/api/v1/query/${PARAMETER_QUERY}/execute`, { performance: 'large' })).status).toBe(200);
  });
});

describe('a failing query', () => {
  it('finishes FAILED with HTTP 200 and the error with its line and column', async () => {
    // a column that does not exist, on the second line
    const sql = 'SELECT 1 AS one,\n  no_such_column AS two\nFROM range(3)';
    const created = await h.post('/api/v1/query', { name: 'fails', query_sql: sql });
    const id = await h.execute(created.body.query_id, {});
    const status = await h.waitUntilFinished(id);
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.is_execution_finished).toBe(true);
    expect(status).not.toHaveProperty('result_metadata');
    expect(status.error.type).toBe('FAILED_TYPE_EXECUTION_FAILED');
    expect(status.error.message).toMatch(/no_such_column/);

    const lines = sql.split('\n');
    const line = lines.findIndex((l) => l.includes('no_such_column')) + 1;
    const column = lines[line - 1]!.indexOf('no_such_column') + 1;
    expect(status.error.metadata).toEqual({ line, column });
    expect(status.error.message.startsWith(`line ${line}:${column}: `)).toBe(true);

    const { status: http, body: results } = await h.get(`/api/v1/execution/${id}/results`);
    expect(http).toBe(200);
    expect(results.state).toBe('QUERY_STATE_FAILED');
    expect(results.error).toEqual(status.error);
    expect(results).not.toHaveProperty('result');
  });

  it('reports a syntax error at its place', async () => {
    const created = await h.post('/api/v1/query', { name: 'bad syntax', query_sql: 'SELECT 1\nFROM range(3)\nGROUP BY BY' });
    const id = await h.execute(created.body.query_id, {});
    const status = await h.waitUntilFinished(id);
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.error.message).toMatch(/syntax error/i);
    expect(status.error.metadata.line).toBeGreaterThan(1);
  });
});

describe('column names', () => {
  it('runs a query whose columns repeat a name, in any case, and answers each under a name of its own', async () => {
    const created = await h.post('/api/v1/query', { name: 'repeats', query_sql: 'SELECT 1 AS c, 2 AS c, 3 AS C' });
    const id = await h.execute(created.body.query_id, {});
    expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
    const { body } = await h.get(`/api/v1/execution/${id}/results`);
    expect(body.result.metadata.column_names).toEqual(['c', 'c_1', 'C_2']);
    expect(body.result.rows).toEqual([{ c: 1, c_1: 2, C_2: 3 }]);
  });
});
