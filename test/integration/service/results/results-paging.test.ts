import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

const MAX_PAGE_ROWS = 1000;
let h: Harness;
let executionId: string;

beforeAll(async () => {
  h = await startHarness({ maxPageRows: MAX_PAGE_ROWS });
  executionId = await h.execute(DEMO_QUERY);
  await h.waitUntilFinished(executionId);
});
afterAll(() => h.stop());

const resultsPath = () => `/api/v1/execution/${executionId}/results`;

describe('execution lifecycle', () => {
  it('answers execute at once with a pending execution, which completes with its metadata', async () => {
    const { status, body } = await h.post(`/api/v1/query/${DEMO_QUERY}/execute`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['execution_id', 'state']);
    expect(body.execution_id).toMatch(/^[0-9A-Z]{26}$/);
    expect(body.state).toBe('QUERY_STATE_PENDING');

    const finished = await h.waitUntilFinished(body.execution_id);
    expect(finished.state).toBe('QUERY_STATE_COMPLETED');
    expect(finished.query_id).toBe(DEMO_QUERY);
    for (const field of ['submitted_at', 'execution_started_at', 'execution_ended_at', 'expires_at']) {
      expect(finished[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
    }
    const days = (Date.parse(finished.expires_at) - Date.parse(finished.execution_ended_at)) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    const meta = finished.result_metadata;
    expect(meta.total_row_count).toBe(5000);
    expect(meta.column_names).toEqual([
      'trade_id',
      'block_time',
      'chain',
      'token',
      'trader',
      'amount',
      'amount_usd',
      'is_buy',
      'route',
      'raw_amount',
    ]);
    expect(meta.column_types).toHaveLength(10);
    expect(meta.total_result_set_bytes).toBeGreaterThan(0);
    expect(finished.result.result_set_size).toBe(meta.total_result_set_bytes);
    expect(finished).not.toHaveProperty('error');
  });
});

describe('results', () => {
  it('keeps JSON types: numbers, booleans, nulls, big integers as strings, timestamps in UTC', async () => {
    const { status, body } = await h.get(`${resultsPath()}?limit=11`);
    expect(status).toBe(200);
    const rows: Json[] = body.result.rows;
    expect(rows).toHaveLength(11);
    const first = rows[0];
    expect(first.trade_id).toBe(1);
    expect(first.block_time).toBe('2024-01-01 00:08:37.000 UTC');
    expect(typeof first.chain).toBe('string');
    expect(typeof first.amount).toBe('number');
    expect(typeof first.amount_usd).toBe('number');
    expect(first.is_buy).toBe(true);
    expect(first.raw_amount).toMatch(/^\d+$/);
    expect(BigInt(first.raw_amount) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(rows[10].route).toBeNull(); // every 11th trade has no route
  });

  it('pages through every row exactly once, in order, by following next_uri', async () => {
    let uri: string | undefined = `${h.service.baseUrl}${resultsPath()}?limit=700`;
    const ids: number[] = [];
    let pages = 0;
    let bytes = 0;
    let last: Json;
    while (uri !== undefined) {
      const response = await fetch(uri, { headers: { 'x-dune-api-key': h.key } });
      expect(response.status).toBe(200);
      last = await response.json();
      ids.push(...last.result.rows.map((r: Json) => r.trade_id));
      expect(last.result.metadata.row_count).toBe(last.result.rows.length);
      bytes += last.result.metadata.result_set_bytes;
      if (last.next_uri !== undefined) {
        expect(last.next_uri.startsWith(`${h.service.baseUrl}/api/v1/execution/${executionId}/results?`)).toBe(true);
        expect(last.next_offset).toBe(ids.length);
      }
      uri = last.next_uri;
      pages++;
    }
    expect(pages).toBe(Math.ceil(5000 / 700));
    expect(ids).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(last).not.toHaveProperty('next_offset');
    expect(last).not.toHaveProperty('next_uri');
    expect(bytes).toBe(last.result.metadata.total_result_set_bytes);
  });

  it('lowers a limit above the page cap and still gives the next page', async () => {
    const { body } = await h.get(`${resultsPath()}?limit=500000&offset=1000`);
    expect(body.result.rows).toHaveLength(MAX_PAGE_ROWS);
    expect(body.result.rows[0].trade_id).toBe(1001);
    expect(body.next_offset).toBe(2000);
    const next = new URL(body.next_uri);
    expect(next.searchParams.get('limit')).toBe(String(MAX_PAGE_ROWS));
    expect(next.searchParams.get('offset')).toBe('2000');
  });

  it('without a limit answers one page of the cap', async () => {
    const { body } = await h.get(resultsPath());
    expect(body.result.metadata.row_count).toBe(MAX_PAGE_ROWS);
    expect(body.next_offset).toBe(MAX_PAGE_ROWS);
  });

  it('answers an offset past the end with no rows and the real total', async () => {
    const { status, body } = await h.get(`${resultsPath()}?limit=10&offset=99999`);
    expect(status).toBe(200);
    expect(body.result.rows).toEqual([]);
    expect(body.result.metadata.row_count).toBe(0);
    expect(body.result.metadata.total_row_count).toBe(5000);
    expect(body).not.toHaveProperty('next_uri');
  });

  it('carries the original options in next_uri', async () => {
    const { body } = await h.get(`${resultsPath()}?limit=5&api_key=${h.key}&ignore_max_datapoints_per_request=true`);
    const next = new URL(body.next_uri);
    expect(next.searchParams.get('ignore_max_datapoints_per_request')).toBe('true');
    expect(next.searchParams.get('api_key')).toBe(h.key);
    expect(next.searchParams.get('offset')).toBe('5');
  });

  it('builds next_uri on the address the client reached when its Host names another machine', async () => {
    const port = new URL(h.service.baseUrl).port;
    const body = await new Promise<Json>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: `${resultsPath()}?limit=3`, headers: { host: `querydesk.test:${port}`, 'x-dune-api-key': h.key } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(body.next_uri).toBe(`http://127.0.0.1:${port}${resultsPath()}?limit=3&offset=3`);
  });

  it('refuses a malformed limit or offset', async () => {
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      const { status, body } = await h.get(`${resultsPath()}?${query}`);
      expect(status).toBe(400);
      expect(body.error).toMatch(/^(limit|offset) must be/);
    }
  });

  it('answers an unknown execution id with the real service error', async () => {
    const { status, body } = await h.get('/api/v1/execution/01HZZZZZZZZZZZZZZZZZZZZZZZ/results');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'The requested execution ID (ID: 01HZZZZZZZZZZZZZZZZZZZZZZZ) is invalid.' });
  });
});
