import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName, ExecutionUpdate } from '../../../main/contract/index.ts';
import { createCore, type Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { memoryKeychain } from './core-harness.ts';
import { startFakeService, type FakeAnswer, type FakeRequest, type FakeService } from './fake-service.ts';

// The handlers against a scripted service: a 10-row result served at most 3 rows per page.

const TOTAL = 10;
const PAGE_CAP = 3;

function scriptedService(request: FakeRequest): FakeAnswer {
  const { method, path, query } = request;
  if (method === 'POST' && path === '/api/v1/query/7/execute') return { body: { execution_id: 'E1', state: 'QUERY_STATE_PENDING' } };
  if (method === 'POST' && path.startsWith('/api/v1/query/')) return { status: 404, body: { error: 'Query not found' } };
  if (path === '/api/v1/execution/E1/status') {
    return {
      body: {
        execution_id: 'E1',
        query_id: 7,
        state: 'QUERY_STATE_COMPLETED',
        is_execution_finished: true,
        result_metadata: { column_names: ['n', 'label'], column_types: ['integer', 'varchar'], total_row_count: TOTAL },
      },
    };
  }
  if (path === '/api/v1/execution/E1/cancel') return { body: { success: false } };
  if (path === '/api/v1/execution/E1/results') {
    const offset = Number(query.get('offset') ?? 0);
    const limit = Math.min(Number(query.get('limit')), PAGE_CAP);
    const end = Math.min(TOTAL, offset + limit);
    const rows = Array.from({ length: Math.max(0, end - offset) }, (_, i) => ({
      label: `row ${offset + i}`,
      n: offset + i,
      extra: 'ignored',
    }));
    return {
      body: {
        execution_id: 'E1',
        state: 'QUERY_STATE_COMPLETED',
        is_execution_finished: true,
        result: {
          rows,
          metadata: { column_names: ['n', 'label'], column_types: ['integer', 'varchar'], row_count: rows.length, total_row_count: TOTAL },
        },
        ...(end < TOTAL ? { next_offset: end, next_uri: `http://x/api/v1/execution/E1/results?offset=${end}&limit=${limit}` } : {}),
      },
    };
  }
  if (path === '/api/v1/execution/CUT/results') {
    // As the real service words it, typo included; a lenient service could also serve it without the flag.
    if (query.get('allow_partial_results') !== 'true')
      return { status: 400, body: { error: "Partial Result, please request with 'allows_partial_results=true'" } };
    return {
      body: {
        execution_id: 'CUT',
        state: 'QUERY_STATE_COMPLETED_PARTIAL',
        is_execution_finished: true,
        result: { rows: [{ n: 0 }], metadata: { column_names: ['n'], total_row_count: 1 } },
      },
    };
  }
  if (path === '/api/v1/execution/LENIENT/results') {
    return {
      body: {
        execution_id: 'LENIENT',
        state: 'QUERY_STATE_COMPLETED_PARTIAL',
        is_execution_finished: true,
        result: { rows: [{ n: 0 }], metadata: { column_names: ['n'], total_row_count: 1 } },
      },
    };
  }
  if (method === 'POST' && path === '/api/v1/query') return { body: { query_id: 7 } };
  if (method === 'PATCH' && path === '/api/v1/query/7') return { body: { query_id: 7 } };
  if (path === '/api/v1/execution/RUNNING/results')
    return { body: { execution_id: 'RUNNING', state: 'QUERY_STATE_EXECUTING', is_execution_finished: false } };
  if (path === '/api/v1/queries')
    return {
      body: {
        queries: [
          { id: 7, name: 'Demo', description: 'd', owner: 'demo', tags: ['x'], created_at: '2026-01-01T00:00:00Z', updated_at: null },
        ],
        total: 1,
      },
    };
  if (path === '/api/v1/query/7')
    return {
      body: {
        query_id: 7,
        name: 'Demo',
        description: 'd',
        owner: 'demo',
        tags: [],
        version: 2,
        query_sql: 'select 1',
        parameters: [{ key: 'n', type: 'number', value: '5' }],
        is_private: false,
        is_archived: false,
      },
    };
  return { status: 404, body: { error: 'Object not found' } };
}

let fake: FakeService | null = null;
let core: Core | null = null;
let dir: string | null = null;
afterEach(async () => {
  await core?.dispose();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  core = null;
  fake = null;
  dir = null;
});

async function start(apiKey: string | null = 'demo-key-abcdef123456') {
  fake = await startFakeService(scriptedService);
  const events: { event: EventName; payload: unknown }[] = [];
  core = await createCore({
    host: 'web',
    version: '9.9.9',
    localService: { baseUrl: fake.baseUrl, apiKey },
    emit: (event, payload) => events.push({ event, payload }),
    dataDir: (dir = mkdtempSync(join(tmpdir(), 'querydesk-handlers-'))),
    keyVault: new KeyVault(memoryKeychain()),
  });
  return { handlers: core.handlers, events, fake };
}

describe('the core handlers', () => {
  it('describe the app and the Local account without its key', async () => {
    const { handlers } = await start();
    expect(await handlers['settings:get']({})).toMatchObject({ ok: true, data: { about: { version: '9.9.9', host: 'web' } } });
    const listed = await handlers['accounts:list']({});
    expect(listed).toEqual({
      ok: true,
      data: {
        activeAccountId: 'local',
        accounts: [
          {
            id: 'local',
            label: 'Local',
            kind: 'user',
            handle: null,
            baseUrl: fake!.baseUrl,
            serviceName: 'DUNE',
            keyHint: '••••3456',
            keyStorage: 'host',
            isLocal: true,
          },
        ],
        keychain: { available: true },
      },
    });
    expect(JSON.stringify(listed)).not.toContain('demo-key');
    expect(await handlers['accounts:test']({ accountId: 'local' })).toMatchObject({ ok: true, data: { handle: 'demo' } });
    expect(fake!.requests.map((r) => `${r.path}?${r.query}`)).toEqual(['/api/v1/queries?limit=1']);
    expect(fake!.requests[0]?.headers['x-dune-api-key']).toBe('demo-key-abcdef123456');
  });

  it('list and read queries', async () => {
    const { handlers } = await start();
    expect(await handlers['workspace:refresh']({ accountId: 'local' })).toMatchObject({ ok: true, data: { status: 'online' } });
    expect(await handlers['workspace:open']({ accountId: 'local' })).toMatchObject({
      ok: true,
      data: { queries: [{ id: 7, name: 'Demo', createdAt: '2026-01-01T00:00:00Z', updatedAt: null }] },
    });
    expect(await handlers['queries:get']({ accountId: 'local', queryId: 7 })).toMatchObject({
      ok: true,
      data: { id: 7, sql: 'select 1', version: 2, parameters: [{ key: 'n', type: 'number', value: '5' }] },
    });
  });

  it('map service errors to contract codes with the service’s message, and refuse unknown accounts', async () => {
    const { handlers } = await start();
    expect(await handlers['executions:run']({ accountId: 'local', queryId: 8 })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'Query not found', details: { status: 404 } },
    });
    expect(await handlers['queries:get']({ accountId: 'nobody', queryId: 7 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('run an execution, send its updates as events, and answer executions:get', async () => {
    const { handlers, events, fake } = await start();
    const run = await handlers['executions:run']({ accountId: 'local', queryId: 7, parameters: { n: '5' } });
    expect(run).toMatchObject({ ok: true, data: { executionId: 'E1', state: 'QUERY_STATE_PENDING', isFinished: false } });
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({ query_parameters: { n: '5' } });
    while (!events.some((e) => (e.payload as ExecutionUpdate).isFinished)) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events.every((e) => e.event === 'execution:update')).toBe(true);
    const last = events.at(-1)!.payload as ExecutionUpdate;
    expect(last).toMatchObject({ state: 'QUERY_STATE_COMPLETED', result: { totalRowCount: TOTAL, columnNames: ['n', 'label'] } });
    expect(await handlers['executions:get']({ accountId: 'local', executionId: 'E1' })).toEqual({ ok: true, data: last });
    expect(await handlers['executions:cancel']({ accountId: 'local', executionId: 'E1' })).toEqual({
      ok: true,
      data: { cancelled: false },
    });
  });

  it('complete a range across pages when the service lowers the limit, as arrays in column order', async () => {
    const { handlers, fake } = await start();
    const page = await handlers['results:getRows']({ accountId: 'local', executionId: 'E1', startRow: 2, endRow: 9 });
    expect(page).toEqual({
      ok: true,
      data: {
        columns: [
          { name: 'n', type: 'integer' },
          { name: 'label', type: 'varchar' },
        ],
        rows: [2, 3, 4, 5, 6, 7, 8].map((n) => [n, `row ${n}`]),
        startRow: 2,
        totalRowCount: TOTAL,
        isPartial: false,
      },
    });
    expect(fake.requests.map((r) => `${r.query.get('offset')}+${r.query.get('limit')}`)).toEqual(['2+7', '5+4', '8+1']);
  });

  it('return a short last page at the end of the result, and an error for a result not ready', async () => {
    const { handlers } = await start();
    const tail = await handlers['results:getRows']({ accountId: 'local', executionId: 'E1', startRow: 8, endRow: 100 });
    expect(tail.ok && tail.data.rows).toEqual([
      [8, 'row 8'],
      [9, 'row 9'],
    ]);
    const running = await handlers['results:getRows']({ accountId: 'local', executionId: 'RUNNING', startRow: 0, endRow: 100 });
    expect(running).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(running.ok ? '' : running.error.message).toBe('The execution has no result to read: it is still running.');
  });

  it('read a partial result only when allowed, whether the service refuses it or not', async () => {
    const { handlers, fake } = await start();
    const range = { accountId: 'local', startRow: 0, endRow: 10 };
    for (const executionId of ['CUT', 'LENIENT']) {
      const refused = await handlers['results:getRows']({ ...range, executionId });
      expect(refused).toMatchObject({ ok: false, error: { code: 'partial_result' } });
      expect(await handlers['results:getRows']({ ...range, executionId, allowPartial: true })).toMatchObject({
        ok: true,
        data: { rows: [[0]], isPartial: true },
      });
    }
    expect(fake.requests.map((r) => r.query.get('allow_partial_results'))).toEqual([null, 'true', null, 'true']);
  });

  it('send a new query and its changes in the service’s field names, then read the query back', async () => {
    const { handlers, fake } = await start();
    const parameters = [{ key: 'n', type: 'number' as const, value: '5', enumOptions: ['5'] }];
    const created = await handlers['queries:create']({ accountId: 'local', name: 'Demo', sql: 'select {{n}}', tags: ['x'], parameters });
    expect(created).toMatchObject({ ok: true, data: { id: 7, version: 2 } });
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({
      name: 'Demo',
      query_sql: 'select {{n}}',
      tags: ['x'],
      parameters,
      is_private: false,
    });
    // a save reads the service's version first, then sends only the fields changed
    expect(await handlers['queries:save']({ accountId: 'local', queryId: 7, baseVersion: 2, edit: { description: 'new' } })).toMatchObject({
      ok: true,
      data: { status: 'saved' },
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/query',
      'GET /api/v1/query/7',
      'GET /api/v1/query/7',
      'PATCH /api/v1/query/7',
      'GET /api/v1/query/7',
    ]);
    expect(JSON.parse(fake.requests[3]!.body)).toEqual({ description: 'new' });
  });
});
