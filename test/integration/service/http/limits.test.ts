import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { DEMO_QUERY, startHarness, type Harness } from '../service-harness.ts';

const LARGE_QUERY = 4;
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('result cap', () => {
  it('stores a result over the cap truncated, as COMPLETED_PARTIAL, readable only when partial results are allowed', async () => {
    h = await startHarness({ resultCapBytes: 10_000 });
    const id = await h.execute(DEMO_QUERY);
    const status = await h.waitUntilFinished(id);
    expect(status.state).toBe('QUERY_STATE_COMPLETED_PARTIAL');
    expect(status.is_execution_finished).toBe(true);
    // as on Dune, a status has result_metadata only when COMPLETED: a cut result's figures are on its pages
    expect(status).not.toHaveProperty('result_metadata');
    const metadata = (await h.get(`/api/v1/execution/${id}/results?allow_partial_results=true&limit=1`)).body.result.metadata;
    const total = metadata.total_row_count;
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(5000);
    expect(metadata.total_result_set_bytes).toBeLessThanOrEqual(10_000);
    expect(status.result.result_set_size).toBe(metadata.total_result_set_bytes);

    for (const path of [`/api/v1/execution/${id}/results`, `/api/v1/execution/${id}/results/csv`, `/api/v1/query/${DEMO_QUERY}/results`]) {
      expect(await h.get(path)).toEqual({
        status: 400,
        body: { error: "Partial Result, please request with 'allows_partial_results=true'" },
      });
    }
    const { body } = await h.get(`/api/v1/execution/${id}/results?allow_partial_results=true`);
    expect(body.state).toBe('QUERY_STATE_COMPLETED_PARTIAL');
    expect(body.result.rows.map((r: { trade_id: number }) => r.trade_id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));

    // pages of the cut result, read by position, end where its rows end
    const paged: number[] = [];
    for (let offset = 0; offset < total + 14; offset += 7) {
      const page = await h.get(`/api/v1/execution/${id}/results?allow_partial_results=true&limit=7&offset=${offset}`);
      paged.push(...page.body.result.rows.map((r: { trade_id: number }) => r.trade_id));
    }
    expect(paged).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it('stops reading a large result once it is past the cap', async () => {
    h = await startHarness({ resultCapBytes: 1024 * 1024 });
    const id = await h.execute(LARGE_QUERY);
    const status = await h.waitUntilFinished(id);
    expect(status.state).toBe('QUERY_STATE_COMPLETED_PARTIAL');
    expect(status.result.result_set_size).toBeLessThanOrEqual(1024 * 1024);
    const metadata = (await h.get(`/api/v1/execution/${id}/results?allow_partial_results=true&limit=1`)).body.result.metadata;
    expect(metadata.total_result_set_bytes).toBe(status.result.result_set_size);
    expect(metadata.total_row_count).toBeLessThan(1_000_000);
  });
});

describe('retention', () => {
  it('expires a result after the retention: EXPIRED, finished, no rows', async () => {
    h = await startHarness({ retentionMillis: 200 });
    const id = await h.execute(DEMO_QUERY);
    let status = (await h.get(`/api/v1/execution/${id}/status`)).body;
    while (status.state !== 'QUERY_STATE_EXPIRED') {
      expect(['QUERY_STATE_PENDING', 'QUERY_STATE_EXECUTING', 'QUERY_STATE_COMPLETED']).toContain(status.state);
      await new Promise((r) => setTimeout(r, 50));
      status = (await h.get(`/api/v1/execution/${id}/status`)).body;
    }
    expect(status.is_execution_finished).toBe(true);
    expect(status).not.toHaveProperty('result_metadata');
    const { status: http, body } = await h.get(`/api/v1/execution/${id}/results`);
    expect(http).toBe(200);
    expect(body.state).toBe('QUERY_STATE_EXPIRED');
    expect(body).not.toHaveProperty('result');
    expect((await h.get(`/api/v1/query/${DEMO_QUERY}/results`)).body.state).toBe('QUERY_STATE_EXPIRED');
    expect((await h.get(`/api/v1/execution/${id}/results/csv`)).body.error).toBe(
      'Query state is QUERY_STATE_EXPIRED, cannot provide CSV result',
    );
  });
});

describe('rate limits', () => {
  it("applies the plan's requests per minute, reads and writes apart, with 429 and Retry-After", async () => {
    h = await startHarness({ rateLimit: true, accounts: ACCOUNTS });
    const bob = { 'x-dune-api-key': KEYS.bob };
    const read = () => fetch(`${h!.service.baseUrl}/api/v1/execution/01HZZZZZZZZZZZZZZZZZZZZZZZ/status`, { headers: bob });
    for (let i = 0; i < 40; i++) expect((await read()).status).toBe(400);
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const refusal = (await refused.json()) as { error: string };
    // the wait is in Retry-After only: the app's client adds it to the words when it will not wait
    expect(refusal.error).toBe('rate limit exceeded: the free plan allows 40 read requests per minute');

    const write = () => fetch(`${h!.service.baseUrl}/api/v1/query/1/execute`, { method: 'POST', headers: bob });
    for (let i = 0; i < 15; i++) expect((await write()).status).not.toBe(429);
    expect((await write()).status).toBe(429);

    const alice = await fetch(`${h.service.baseUrl}/api/v1/queries`, { headers: { 'x-dune-api-key': KEYS.alice } });
    expect(alice.status).toBe(200);
  });

  it('counts a request by the route it takes, however its path is spelled', async () => {
    h = await startHarness({ rateLimit: true, accounts: ACCOUNTS });
    const bob = { 'x-dune-api-key': KEYS.bob };
    const request = (method: string, path: string) => fetch(`${h!.service.baseUrl}${path}`, { method, headers: bob });
    // a cancel with a trailing slash or an encoded letter is the cancel route's: a read (40 a minute on free)
    const cancels = ['/api/v1/execution/01HZZZZZZZZZZZZZZZZZZZZZZZ/cancel/', '/api/v1/execution/01HZZZZZZZZZZZZZZZZZZZZZZZ/%63ancel'];
    for (let i = 0; i < 40; i++) expect((await request('POST', cancels[i % 2]!)).status).not.toBe(429);
    const refused = await request('POST', cancels[0]!);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(/40 read requests per minute/);
    // deleting a table that happens to be called `cancel` is a write (15 a minute on free)
    for (let i = 0; i < 15; i++) expect((await request('DELETE', '/api/v1/table/bob/cancel')).status).toBe(404);
    expect((await request('DELETE', '/api/v1/table/bob/cancel')).status).toBe(429);
  });
});
