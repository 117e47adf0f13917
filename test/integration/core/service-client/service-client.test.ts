import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type RetryPolicy } from '../../../../main/core/service-client/index.ts';
import { startFakeService, type FakeAnswer, type FakeRequest, type FakeService } from '../fake-service.ts';

let fake: FakeService | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** Without retries unless asked: these tests are about what one answer becomes. */
async function clientFor(answer: (request: FakeRequest) => FakeAnswer, timeoutMs?: number, retry: RetryPolicy = NO_RETRY) {
  fake = await startFakeService(answer);
  return { client: createServiceClient({ baseUrl: fake.baseUrl, serviceName: 'DUNE', apiKey: 'secret-key-1234', timeoutMs, retry }), fake };
}

const NO_RETRY: RetryPolicy = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 };

describe('the service client: requests', () => {
  it('sends the key in the service-named header, to /api/v1, with a JSON body on execute', async () => {
    const { client, fake } = await clientFor(() => ({ body: { execution_id: 'E1', state: 'QUERY_STATE_PENDING' } }));
    const started = await client.executions.execute({ queryId: 7, queryParameters: { chain: 'eth', picks: ['a', 'b'] } });
    expect(started).toEqual({ ok: true, data: { executionId: 'E1', state: 'QUERY_STATE_PENDING' } });
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/v1/query/7/execute');
    expect(request?.headers['x-dune-api-key']).toBe('secret-key-1234');
    expect(JSON.parse(request?.body ?? '')).toEqual({ query_parameters: { chain: 'eth', picks: ['a', 'b'] } });
  });

  it('accepts a base URL that already ends in /api/v1', async () => {
    fake = await startFakeService(() => ({ body: { queries: [], total: 0 } }));
    const client = createServiceClient({ baseUrl: `${fake.baseUrl}/api/v1/`, serviceName: 'DUNE', apiKey: 'k' });
    expect((await client.queries.list({ limit: 5, offset: 10 })).ok).toBe(true);
    expect(fake.requests[0]?.path).toBe('/api/v1/queries');
    expect(fake.requests[0]?.query.get('limit')).toBe('5');
    expect(fake.requests[0]?.query.get('offset')).toBe('10');
  });

  it.each([
    [401, 'bad_key', 'invalid API Key'],
    [402, 'forbidden', 'This api request would exceed your configured limits per billing cycle.'],
    [403, 'forbidden', 'Not allowed to execute query. Query is archived, unsaved or not enough permissions'],
    [404, 'not_found', 'Query not found'],
    [400, 'bad_request', 'unknown parameters (chain)'],
    [409, 'bad_request', 'conflict'],
    [429, 'rate_limited', 'too many requests'],
    [500, 'server_error', 'Internal error'],
    [503, 'server_error', 'unavailable'],
  ] as const)('maps HTTP %i to %s with the service’s own message', async (status, kind, message) => {
    const { client } = await clientFor(() => ({ status, body: { error: message } }));
    expect(await client.queries.get(1)).toEqual({ ok: false, error: { kind, status, message } });
  });

  it('says what the status was when an error body is not the usual JSON', async () => {
    const { client } = await clientFor(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    const result = await client.queries.get(1);
    expect(result).toMatchObject({ ok: false, error: { kind: 'server_error', status: 502 } });
    expect(result.ok ? '' : result.error.message).toContain('502');
  });

  it('treats a 200 answer that is not JSON or lacks required fields as a server error', async () => {
    const { client } = await clientFor((request) =>
      request.path.endsWith('/status') ? { body: 'not json' } : { body: { state: 'QUERY_STATE_PENDING' } },
    );
    expect(await client.executions.status('E1')).toMatchObject({ ok: false, error: { kind: 'server_error', status: 200 } });
    expect(await client.executions.execute({ queryId: 1 })).toMatchObject({ ok: false, error: { kind: 'server_error' } });
  });

  it('gives up after its timeout with kind timeout', async () => {
    const { client } = await clientFor(() => ({ stall: true }), 200);
    expect(await client.executions.status('E1')).toMatchObject({ ok: false, error: { kind: 'timeout', status: null } });
  });

  it('stops when its signal aborts, with kind cancelled', async () => {
    const { client, fake } = await clientFor(() => ({ stall: true }));
    const controller = new AbortController();
    const pending = client.results.page({ executionId: 'E1', offset: 0, limit: 10, signal: controller.signal });
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });

  it('reports a service that is not there as unreachable', async () => {
    const { client, fake } = await clientFor(() => ({}));
    await fake.close();
    const result = await client.queries.list();
    expect(result).toMatchObject({ ok: false, error: { kind: 'unreachable', status: null } });
    expect(result.ok ? '' : result.error.message).toContain('127.0.0.1');
  });
});

describe('the service client: tolerant reading', () => {
  it('reads a status with an unknown state, new fields and no optional ones', async () => {
    const { client } = await clientFor(() => ({ body: { execution_id: 'E1', state: 'QUERY_STATE_SOMETHING_NEW', brand_new: { x: 1 } } }));
    const status = await client.executions.status('E1');
    expect(status).toMatchObject({
      ok: true,
      data: {
        executionId: 'E1',
        state: 'QUERY_STATE_SOMETHING_NEW',
        isExecutionFinished: null,
        queuePosition: null,
        resultMetadata: null,
        error: null,
      },
    });
  });

  it('reads a failed status with its error line and column', async () => {
    const { client } = await clientFor(() => ({
      body: {
        execution_id: 'E1',
        query_id: 3,
        state: 'QUERY_STATE_FAILED',
        is_execution_finished: true,
        error: {
          type: 'FAILED_TYPE_EXECUTION_FAILED',
          message: "line 1:8: Column 'x' cannot be resolved",
          metadata: { line: 1, column: 8 },
        },
      },
    }));
    const status = await client.executions.status('E1');
    expect(status.ok && status.data.error).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: "line 1:8: Column 'x' cannot be resolved",
      line: 1,
      column: 8,
    });
  });

  it('reads a results page whose metadata lacks fields (no column_types, no pending_time_millis)', async () => {
    const { client, fake } = await clientFor(() => ({
      body: {
        execution_id: 'E1',
        state: 'QUERY_STATE_COMPLETED',
        is_execution_finished: true,
        result: { rows: [{ n: 1 }, { n: 2 }], metadata: { column_names: ['n'], total_row_count: 10 } },
        next_offset: 7,
        next_uri: 'http://x/api/v1/execution/E1/results?limit=2&offset=7',
      },
    }));
    const page = await client.results.page({ executionId: 'E1', offset: 5, limit: 2 });
    expect(fake.requests[0]?.query.get('offset')).toBe('5');
    expect(page).toMatchObject({
      ok: true,
      data: {
        rows: [{ n: 1 }, { n: 2 }],
        nextOffset: 7,
        metadata: { columnNames: ['n'], columnTypes: null, totalRowCount: 10, pendingTimeMillis: null },
      },
    });
  });

  it('reads a results answer of a running execution as having no rows', async () => {
    const { client } = await clientFor(() => ({
      body: { execution_id: 'E1', state: 'QUERY_STATE_EXECUTING', is_execution_finished: false },
    }));
    expect(await client.results.page({ executionId: 'E1', offset: 0, limit: 2 })).toMatchObject({
      ok: true,
      data: { rows: null, nextOffset: null },
    });
  });

  it('reads the query list and a query record, filling in absent fields', async () => {
    const { client } = await clientFor((request) =>
      request.path === '/api/v1/queries'
        ? { body: { queries: [{ id: 1, name: 'Demo' }, { name: 'no id' }], total: 1 } }
        : { body: { query_id: 1, name: 'Demo', query_sql: 'select {{n}}', parameters: [{ key: 'n', type: 'number', value: '5' }] } },
    );
    expect(await client.queries.list()).toEqual({
      ok: true,
      data: { queries: [{ id: 1, name: 'Demo', description: '', owner: '', tags: [], createdAt: null, updatedAt: null }], total: 1 },
    });
    expect(await client.queries.get(1)).toMatchObject({
      ok: true,
      data: {
        queryId: 1,
        querySql: 'select {{n}}',
        version: 0,
        isArchived: false,
        parameters: [{ key: 'n', type: 'number', value: '5', enumOptions: null }],
      },
    });
  });

  it('reads the cancel answer', async () => {
    const { client, fake } = await clientFor(() => ({ body: { success: true } }));
    expect(await client.executions.cancel('E 1')).toEqual({ ok: true, data: true });
    expect(fake.requests[0]?.path).toBe('/api/v1/execution/E%201/cancel');
  });
});
