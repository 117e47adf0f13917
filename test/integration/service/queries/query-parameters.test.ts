import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FED_ENUM } from '../../../dune-shapes/dune-parameter.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const send = (method: string, path: string, body?: unknown) => h.post(path, body, { method });

async function rowsOf(executionId: string): Promise<Json[]> {
  await h.waitUntilFinished(executionId);
  return (await h.get(`/api/v1/execution/${executionId}/results`)).body.result.rows;
}

async function create(body: Record<string, unknown>): Promise<number> {
  const { status, body: reply } = await send('POST', '/api/v1/query', { name: 'p', ...body });
  expect(status, JSON.stringify(reply)).toBe(200);
  return reply.query_id;
}

describe('parameter definitions', () => {
  it('keeps every documented field of a parameter, on create and on update', async () => {
    const chain = FED_ENUM;
    const id = await create({ query_sql: "select '{{chain}}' as c", parameters: [chain] });
    expect((await h.get(`/api/v1/query/${id}`)).body.parameters).toEqual([chain]);

    const changed = {
      ...chain,
      isFreeformAllowed: false,
      enumFromResults: { queryId: 2, columnName: 'name' },
      values: ['ethereum', 'base'],
    };
    expect((await send('PATCH', `/api/v1/query/${id}`, { parameters: [changed] })).status).toBe(200);
    expect((await h.get(`/api/v1/query/${id}`)).body.parameters).toEqual([changed]);
  });

  it('names each field of a parameter whose shape is wrong', async () => {
    const { status, body } = await send('POST', '/api/v1/query', {
      name: 'p',
      query_sql: 'select 1',
      parameters: [{ key: 'e', type: 'enum', value: 'a', isFreeformAllowed: 'no', enumFromResults: { queryId: 'x' }, values: 'a' }],
    });
    expect(status).toBe(400);
    expect(body.error).toMatch(/parameters\.0\.isFreeformAllowed: /);
    expect(body.error).toMatch(/parameters\.0\.enumFromResults\.queryId: /);
    expect(body.error).toMatch(/parameters\.0\.enumFromResults\.columnName: /);
    expect(body.error).toMatch(/parameters\.0\.values: /);
  });
});

describe('parameter names', () => {
  it('runs names that are keys of every JavaScript object, by default, by value and for the latest result', async () => {
    const id = await create({
      query_sql: "select '{{constructor}}' as a, '{{__proto__}}' as b",
      parameters: [
        { key: 'constructor', type: 'text', value: 'c0' },
        { key: '__proto__', type: 'text', value: 'p0' },
      ],
    });
    expect(await rowsOf(await h.execute(id, {}))).toEqual([{ a: 'c0', b: 'p0' }]);
    // written out, as an object literal's __proto__ would set its prototype instead
    const body = '{"query_parameters": {"constructor": "c1", "__proto__": "p1"}}';
    const run = await h.post(`/api/v1/query/${id}/execute`, undefined, { body });
    expect(await rowsOf(run.body.execution_id)).toEqual([{ a: 'c1', b: 'p1' }]);

    const latest = (query: string) => h.get(`/api/v1/query/${id}/results?${query}`);
    expect((await latest('params.constructor=c0')).body.result.rows).toEqual([{ a: 'c0', b: 'p0' }]);
    expect((await latest('params.constructor=c1&params.__proto__=p1')).body.result.rows).toEqual([{ a: 'c1', b: 'p1' }]);
    expect((await latest('params.constructor=c1')).status).toBe(404);
  });
});

describe('enum values', () => {
  it('refuses a list for a single-select enum, naming the parameter', async () => {
    const id = await create({
      query_sql: "select '{{e}}' as e",
      parameters: [{ key: 'e', type: 'enum', value: 'a', enumOptions: ['a', 'b'] }],
    });
    expect(await h.post(`/api/v1/query/${id}/execute`, { query_parameters: { e: ['a', 'b'] } })).toEqual({
      status: 400,
      body: { error: 'parameter e takes one of its options, not a list: it is not a multi-select' },
    });
    expect(await rowsOf(await h.execute(id, { query_parameters: { e: 'b' } }))).toEqual([{ e: 'b' }]);
  });
});

describe('defaults', () => {
  it("refuses a default that its parameter's type does not allow, on create and on update", async () => {
    const created = await send('POST', '/api/v1/query', {
      name: 'p',
      query_sql: 'select {{n}}, {{e}}',
      parameters: [
        { key: 'n', type: 'number', value: 'abc' },
        { key: 'e', type: 'enum', value: 'c', enumOptions: ['a', 'b'] },
      ],
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatch(/parameters\.0\.value: the default of parameter n must be a number, got 'abc'/);
    expect(created.body.error).toMatch(/parameters\.1\.value: the default of parameter e must be one of its options \(a, b\), got 'c'/);

    const id = await create({ query_sql: 'select {{n}} as n', parameters: [{ key: 'n', type: 'number', value: '1' }] });
    const updated = await send('PATCH', `/api/v1/query/${id}`, { parameters: [{ key: 'n', type: 'datetime', value: '1' }] });
    expect(updated.status).toBe(400);
    expect(updated.body.error).toMatch(/parameters\.0\.value: the default of parameter n must be a date-time/);
    expect((await h.get(`/api/v1/query/${id}`)).body.parameters).toEqual([{ key: 'n', type: 'number', value: '1' }]);
  });

  it('refuses to run a default stored before defaults were checked, and never puts it in the SQL', async () => {
    const id = await create({ query_sql: 'select {{n}} as n', parameters: [{ key: 'n', type: 'number', value: '1' }] });
    await h.service.close();
    const meta = await DuckDBInstance.create(join(h.dataDir, 'service.duckdb'));
    const connection = await meta.connect();
    const stored = JSON.stringify([{ key: 'n', type: 'number', value: '1) union select 42 --' }]);
    await connection.run(`UPDATE queries SET parameters = $parameters WHERE id = $id`, { parameters: stored, id });
    connection.closeSync();
    meta.closeSync();
    await h.restart();

    expect((await h.get(`/api/v1/query/${id}`)).body.parameters).toEqual(JSON.parse(stored));
    const error =
      "the default of parameter n must be a number, got '1) union select 42 --': give the parameter a value, or correct its default";
    expect(await h.post(`/api/v1/query/${id}/execute`, {})).toEqual({ status: 400, body: { error } });
    expect(await rowsOf(await h.execute(id, { query_parameters: { n: 5 } }))).toEqual([{ n: 5 }]);
  });
});
