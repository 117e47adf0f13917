import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  type ClientResult,
  type RetryPolicy,
  type ServiceClient,
} from '../../../../main/core/service-client/index.ts';
import { startService } from '../../../../main/service/index.ts';
import { startFakeService, type FakeAnswer, type FakeRequest, type FakeService } from '../fake-service.ts';
import { startFaultProxy, type Fault, type FaultProxy } from '../fault-proxy.ts';

// Retries, pagination and CSV pages of the client, against a scripted service on loopback, and
// whole reads of a real result from the embedded service through a proxy that injects faults.

const FAST: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 50 };

let fake: FakeService | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function clientFor(answer: (request: FakeRequest, count: number) => FakeAnswer, retry: RetryPolicy = FAST) {
  let count = 0;
  fake = await startFakeService((request) => answer(request, ++count));
  return { client: createServiceClient({ baseUrl: fake.baseUrl, serviceName: 'DUNE', apiKey: 'key', retry }), fake };
}

async function collect<T>(pages: AsyncIterable<ClientResult<T>>): Promise<ClientResult<T>[]> {
  const all: ClientResult<T>[] = [];
  for await (const page of pages) all.push(page);
  return all;
}

const queries = { body: { queries: [], total: 0 } };
const started = { body: { execution_id: 'E1', state: 'QUERY_STATE_PENDING' } };

describe('retries', () => {
  it('retry an idempotent call through 502, 503, 504 and a dropped connection', async () => {
    const { client, fake } = await clientFor(
      (_r, n) => [{ status: 502 }, { status: 503 }, { reset: true }, queries][n - 1] ?? { status: 504 },
    );
    expect(await client.queries.list()).toEqual({ ok: true, data: { queries: [], total: 0 } });
    expect(fake.requests).toHaveLength(4);
  });

  it('never send a GET again after a 500, a bug of the service that would only spend requests', async () => {
    const { client, fake } = await clientFor((_r, n) => (n === 1 ? { status: 500, body: { error: 'Internal error' } } : queries));
    expect(await client.queries.list()).toEqual({ ok: false, error: { kind: 'server_error', status: 500, message: 'Internal error' } });
    expect(fake.requests).toHaveLength(1);
  });

  it('give up after the last attempt with the last error', async () => {
    const { client, fake } = await clientFor(() => ({ status: 503, body: { error: 'down for maintenance' } }));
    expect(await client.queries.list()).toEqual({
      ok: false,
      error: { kind: 'server_error', status: 503, message: 'down for maintenance' },
    });
    expect(fake.requests).toHaveLength(FAST.maxAttempts);
  });

  it('never send a non-idempotent execute twice after a 503, but do after a 429 (refused, not acted on)', async () => {
    const unavailable = await clientFor(() => ({ status: 503, body: { error: 'busy' } }));
    expect(await unavailable.client.executions.execute({ queryId: 1 })).toMatchObject({ ok: false, error: { kind: 'server_error' } });
    expect(unavailable.fake.requests).toHaveLength(1);
    await unavailable.fake.close();

    const limited = await clientFor((_r, n) => (n === 1 ? { status: 429, body: { error: 'rate limited' } } : started));
    expect(await limited.client.executions.execute({ queryId: 1 })).toMatchObject({ ok: true, data: { executionId: 'E1' } });
    expect(limited.fake.requests).toHaveLength(2);
  });

  it('honour Retry-After over its own backoff', async () => {
    // The backoff alone would wait at least 30 s here, beyond the test's time limit.
    const slowBackoff = { maxAttempts: 2, baseDelayMs: 60_000, maxDelayMs: 120_000 };
    const { client, fake } = await clientFor(
      (_r, n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '0' } } : queries),
      slowBackoff,
    );
    expect((await client.queries.list()).ok).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('stop at once when Retry-After asks for longer than it would ever wait, and say so', async () => {
    const { client, fake } = await clientFor(() => ({
      status: 429,
      headers: { 'Retry-After': '3600' },
      body: { error: 'Too many requests' },
    }));
    const result = await client.queries.list();
    expect(result).toMatchObject({ ok: false, error: { kind: 'rate_limited', status: 429, retryAfterMs: 3_600_000 } });
    expect(result.ok ? '' : result.error.message).toBe('Too many requests (try again in 3600 s)');
    expect(fake.requests).toHaveLength(1);
  });

  it('end a wait between attempts when the call is cancelled', async () => {
    const { client, fake } = await clientFor(() => ({ status: 503, headers: { 'Retry-After': '20' } }), {
      maxAttempts: 3,
      baseDelayMs: 1,
      maxDelayMs: 60_000,
    });
    const controller = new AbortController();
    const pending = client.queries.list({ signal: controller.signal });
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });
});

// A 10-row result the service serves at most 3 rows at a time.
function pagedResults(request: FakeRequest, baseUrl: () => string, nextHost?: string): FakeAnswer {
  const offset = Number(request.query.get('offset') ?? 0);
  const limit = Math.min(Number(request.query.get('limit')), 3);
  const end = Math.min(10, offset + limit);
  const next = new URL(`${nextHost ?? baseUrl()}/api/v1/execution/E1/results`);
  next.search = new URLSearchParams({ limit: String(limit), offset: String(end), marker: 'kept' }).toString();
  return {
    body: {
      execution_id: 'E1',
      state: 'QUERY_STATE_COMPLETED',
      is_execution_finished: true,
      result: {
        rows: Array.from({ length: end - offset }, (_, i) => ({ n: offset + i })),
        metadata: { column_names: ['n'], total_row_count: 10 },
      },
      ...(end < 10 ? { next_offset: end, next_uri: next.href } : {}),
    },
  };
}

describe('pagination', () => {
  it('reads every row once, in order, following next_uri as given', async () => {
    const { client, fake } = await clientFor((request) => pagedResults(request, () => fake.baseUrl));
    const pages = await collect(client.results.pages({ executionId: 'E1', limit: 1000 }));
    const rows = pages.flatMap((p) => (p.ok ? (p.data.rows ?? []) : []));
    expect(rows.map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(fake.requests.map((r) => r.query.get('marker'))).toEqual([null, 'kept', 'kept', 'kept']);
  });

  it('never sends the key to a next_uri on another host: it asks for the next offset instead', async () => {
    const { client, fake } = await clientFor((request) => pagedResults(request, () => fake.baseUrl, 'http://127.0.0.2:9'));
    const pages = await collect(client.results.pages({ executionId: 'E1', limit: 1000, offset: 4 }));
    expect(pages.flatMap((p) => (p.ok ? (p.data.rows ?? []) : [])).map((r) => r.n)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(fake.requests.map((r) => r.query.get('offset'))).toEqual(['4', '7']);
  });

  it('ends with the error when a page fails', async () => {
    const { client } = await clientFor((request, n) =>
      n === 2 ? { status: 404, body: { error: 'gone' } } : pagedResults(request, () => fake!.baseUrl),
    );
    const pages = await collect(client.results.pages({ executionId: 'E1', limit: 1000 }));
    expect(pages.map((p) => p.ok)).toEqual([true, false]);
    expect(pages[1]).toMatchObject({ ok: false, error: { kind: 'not_found', message: 'gone' } });
  });

  it('stops when next_offset does not move forward', async () => {
    const { client, fake } = await clientFor(() => ({
      body: { execution_id: 'E1', state: 'QUERY_STATE_COMPLETED', result: { rows: [{ n: 0 }], metadata: {} }, next_offset: 0 },
    }));
    expect(await collect(client.results.pages({ executionId: 'E1', limit: 1 }))).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('CSV pages', () => {
  it('follow the pagination headers and split off the repeated header row', async () => {
    const { client, fake } = await clientFor((request) => {
      const offset = Number(request.query.get('offset'));
      const body = offset === 0 ? 'n,"note"\r\n0,"a, b"\n1,"two\nlines"\n' : 'n,"note"\n2,c\n';
      const headers: Record<string, string> =
        offset === 0
          ? { 'X-Dune-Next-Offset': '2', 'X-Dune-Next-Uri': `${fakeUrl()}/api/v1/execution/E1/results/csv?limit=2&offset=2` }
          : {};
      return { body, headers };
    });
    const fakeUrl = () => fake.baseUrl;
    const pages = await collect(client.results.csvPages({ executionId: 'E1', limit: 2 }));
    expect(pages).toEqual([
      {
        ok: true,
        data: {
          header: 'n,"note"',
          rows: '0,"a, b"\n1,"two\nlines"\n',
          nextOffset: 2,
          nextUri: `${fake.baseUrl}/api/v1/execution/E1/results/csv?limit=2&offset=2`,
        },
      },
      { ok: true, data: { header: 'n,"note"', rows: '2,c\n', nextOffset: null, nextUri: null } },
    ]);
    expect(fake.requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      '/api/v1/execution/E1/results/csv?limit=2&offset=0',
      '/api/v1/execution/E1/results/csv?limit=2&offset=2',
    ]);
    expect(fake.requests[0]?.headers.accept).toBe('text/csv');
  });
});

describe('a CSV page streamed to a consumer', () => {
  const PAGE = 'id,name\n1,a\n2,b\n3,c\n';
  const csv = (extra: Partial<FakeAnswer> = {}): FakeAnswer => ({
    body: PAGE,
    headers: { 'Content-Type': 'text/csv', 'X-DUNE-Next-Offset': '3' },
    ...extra,
  });
  const readAll = async (body: AsyncIterable<Uint8Array>) => {
    let text = '';
    for await (const chunk of body) text += Buffer.from(chunk).toString();
    return text;
  };

  it('is read again from its start when its body breaks off', async () => {
    const { client, fake } = await clientFor((_r, n) => (n === 1 ? csv({ cutAfter: 9 }) : csv()));
    const reads: string[] = [];
    const page = await client.results.csvPageStream({ executionId: 'E1', offset: 0, limit: 3 }, async (body) => {
      reads.push('started');
      return readAll(body);
    });
    expect(page).toEqual({ ok: true, data: { value: PAGE, nextOffset: 3, format: 'csv' } });
    expect(reads).toEqual(['started', 'started']);
    expect(fake.requests.map((r) => r.query.get('offset'))).toEqual(['0', '0']);
  });

  it("throws the consumer's own failure at once instead of asking again", async () => {
    const { client, fake } = await clientFor(() => csv());
    const page = client.results.csvPageStream({ executionId: 'E1', offset: 0, limit: 3 }, async () => {
      throw new Error('the disk is full');
    });
    await expect(page).rejects.toThrow('the disk is full');
    expect(fake.requests).toHaveLength(1);
  });

  it('is asked for as Parquet when told, and says which of the two the service sent', async () => {
    const types = ['application/vnd.apache.parquet', 'Application/Vnd.Apache.Parquet; x=1', 'text/csv; charset=utf-8', 'text/plain'];
    const { client, fake } = await clientFor((_r, n) =>
      csv({ headers: { 'Content-Type': types[n - 1] ?? 'text/csv', 'X-DUNE-Next-Offset': '3' } }),
    );
    const formats: unknown[] = [];
    for (const _ of types) {
      const page = await client.results.csvPageStream({ executionId: 'E1', offset: 0, limit: 3, parquet: true }, readAll);
      formats.push(page.ok && page.data.format);
    }
    expect(formats).toEqual(['parquet', 'parquet', 'csv', 'csv']);
    expect(fake.requests.map((r) => r.headers.accept)).toEqual(types.map(() => 'application/vnd.apache.parquet, text/csv;q=0.5'));
    await client.results.csvPageStream({ executionId: 'E1', offset: 0, limit: 3 }, readAll);
    expect(fake.requests.at(-1)?.headers.accept).toBe('text/csv');
  });

  it('answers an error status as a value, its body read as the message', async () => {
    const { client } = await clientFor(() => ({ status: 404, body: { error: 'gone' } }));
    const page = await client.results.csvPageStream({ executionId: 'E1', offset: 0, limit: 3 }, readAll);
    expect(page).toMatchObject({ ok: false, error: { kind: 'not_found', message: 'gone' } });
  });
});

describe('a whole result read through faults, from the embedded service', () => {
  const TOTAL = 5000;
  const PAGE_ROWS = 700;
  let dir: string;
  let service: Awaited<ReturnType<typeof startService>>;
  let executionId: string;
  let proxy: FaultProxy | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'querydesk-faults-'));
    service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_ROWS });
    const direct = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
    const listed = await direct.queries.list();
    const trades = listed.ok ? listed.data.queries.find((q) => q.name === 'Demo trades') : undefined;
    const started = await direct.executions.execute({ queryId: trades?.id ?? 0 });
    if (!started.ok) throw new Error(started.error.message);
    executionId = started.data.executionId;
    for (;;) {
      const status = await direct.executions.status(executionId);
      if (status.ok && status.data.state === 'QUERY_STATE_COMPLETED') break;
      if (status.ok && status.data.isExecutionFinished) throw new Error(`the demo query ended as ${status.data.state}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = null;
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // One of each fault, each on the first attempt at a page: the retry of that page passes.
  const FAULTS: Record<number, Fault> = {
    2: { status: 429, headers: { 'Retry-After': '0' } },
    4: { status: 502 },
    6: { status: 503 },
    8: 'reset',
    10: 'stall',
  };

  async function throughFaults(): Promise<{ client: ServiceClient; proxy: FaultProxy }> {
    proxy = await startFaultProxy(service.baseUrl, (_request, count) => FAULTS[count] ?? null);
    // The stall ends at this timeout, which the client then retries like a dropped connection.
    const client = createServiceClient({
      baseUrl: proxy.baseUrl,
      serviceName: 'DUNE',
      apiKey: service.demoApiKey ?? '',
      retry: FAST,
      timeoutMs: 500,
    });
    return { client, proxy };
  }

  it('returns every row once, in order, as JSON pages', async () => {
    const { client, proxy } = await throughFaults();
    const pages = await collect(client.results.pages({ executionId, limit: 100_000 }));
    expect(pages.every((page) => page.ok)).toBe(true);
    const ids = pages.flatMap((page) => (page.ok ? (page.data.rows ?? []) : [])).map((row) => row.trade_id);
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect(proxy.requests).toHaveLength(Math.ceil(TOTAL / PAGE_ROWS) + Object.keys(FAULTS).length);
  });

  it('returns every row once, in order, as CSV pages', async () => {
    const { client, proxy } = await throughFaults();
    const pages = await collect(client.results.csvPages({ executionId, limit: 100_000 }));
    expect(pages.every((page) => page.ok)).toBe(true);
    const lines = pages.flatMap((page) => (page.ok ? page.data.rows.split('\n').filter((line) => line !== '') : []));
    expect(lines.map((line) => Number(line.split(',')[0]))).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect(proxy.requests).toHaveLength(Math.ceil(TOTAL / PAGE_ROWS) + Object.keys(FAULTS).length);
  });
});
