import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMETER_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

// OAS documents `performance` and `query_parameters` as query-string parameters of execute too
// (notes §2): they are taken from there, checked as in the body, and the body wins over them.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const execute = (query: string, body?: unknown) => h.post(`/api/v1/query/${PARAMETER_QUERY}/execute?${query}`, body);
const trades = (rows: Json[]) => rows.reduce((sum, r) => sum + r.trades, 0);

async function tradesOf(executionId: string): Promise<number> {
  expect((await h.waitUntilFinished(executionId)).state).toBe('QUERY_STATE_COMPLETED');
  return trades((await h.get(`/api/v1/execution/${executionId}/results`)).body.result.rows);
}

/** The performance each execution was stored with, read from the service's own database. */
async function storedPerformance(ids: string[]): Promise<string[]> {
  await h.service.close();
  const instance = await DuckDBInstance.create(join(h.dataDir, 'service.duckdb'));
  const connection = await instance.connect();
  try {
    const performances: string[] = [];
    for (const id of ids) {
      const reader = await connection.runAndReadAll('SELECT performance FROM executions WHERE id = $id', { id });
      performances.push(String(reader.getRowObjects()[0]!.performance));
    }
    return performances;
  } finally {
    connection.closeSync();
    instance.closeSync();
    await h.restart();
  }
}

describe('execute options in the query string', () => {
  it('runs with the query_parameters and performance of the query string, the body winning over them', async () => {
    const parameters = encodeURIComponent('{"chain":"base","min_usd":0}');
    const fromQuery = await execute(`query_parameters=${parameters}&performance=large`);
    expect(fromQuery.status).toBe(200);
    // the demo generator puts every fifth trade (1,000 of 5,000) on base; the default is ethereum above 1000 USD
    expect(await tradesOf(fromQuery.body.execution_id)).toBe(1000);

    const bodyWins = await execute(`query_parameters=${parameters}&performance=large`, {
      query_parameters: { chain: 'ethereum' },
      performance: 'medium',
    });
    expect(bodyWins.status).toBe(200);
    expect(await tradesOf(bodyWins.body.execution_id)).toBeLessThan(1000);

    const sql = await h.post('/api/v1/sql/execute?performance=large', { sql: 'select 1 as n' });
    expect(sql.status).toBe(200);
    expect(await storedPerformance([fromQuery.body.execution_id, bodyWins.body.execution_id, sql.body.execution_id])).toEqual([
      'large',
      'medium',
      'large',
    ]);
  });

  it('refuses a malformed option of the query string, saying where it was', async () => {
    expect(await execute('performance=bogus')).toEqual({
      status: 400,
      body: { error: 'performance in the query string must be one of medium, large' },
    });
    expect(await execute('performance=large&performance=medium')).toEqual({
      status: 400,
      body: { error: 'performance is given 2 times in the query string: give it once' },
    });
    const broken = await execute(`query_parameters=${encodeURIComponent('{chain: base}')}`);
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/^query_parameters in the query string must be a JSON object of parameter names to values: /);
    expect(await execute(`query_parameters=${encodeURIComponent('["base"]')}`)).toEqual({
      status: 400,
      body: { error: 'query_parameters in the query string must be an object of parameter names to values' },
    });
    expect(await execute(`query_parameters=${encodeURIComponent('{"nope":1}')}`)).toEqual({
      status: 400,
      body: { error: 'unknown parameters (nope)' },
    });
    expect(await h.post('/api/v1/sql/execute?performance=bogus', { sql: 'select 1' })).toEqual({
      status: 400,
      body: { error: 'performance in the query string must be one of medium, large' },
    });
    expect(await h.post('/api/v1/sql/execute?query_parameters=%7B%7D', { sql: 'select 1' })).toEqual({
      status: 400,
      body: { error: '/sql/execute takes no query_parameters: put the values in the SQL' },
    });
  });
});
