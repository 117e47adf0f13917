import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILTER_NESTING } from '../../../../main/filter-language/index.ts';
import { MAX_PAGE_DATAPOINTS } from '../../../../main/service/results/paging.ts';
import { DEMO_QUERY, PARAMETER_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
let executionId: string;
beforeAll(async () => {
  h = await startHarness({ maxPageRows: 2000 });
  executionId = await h.execute(DEMO_QUERY);
  await h.waitUntilFinished(executionId);
});
afterAll(() => h.stop());

const results = (query: string) => h.get(`/api/v1/execution/${executionId}/results?${query}`);
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('filters, sort_by and columns', () => {
  it('filters rows, counts the matching total, and pages through them', async () => {
    const { status, body } = await results(q({ filters: "chain = 'base' and trade_id <= 100", limit: '7' }));
    expect(status).toBe(200);
    const rows: Json[] = body.result.rows;
    expect(rows.every((r) => r.chain === 'base' && r.trade_id <= 100)).toBe(true);
    expect(body.result.metadata.total_row_count).toBe(20);
    const next = new URL(body.next_uri);
    expect(next.searchParams.get('filters')).toBe("chain = 'base' and trade_id <= 100");
    expect(next.searchParams.get('offset')).toBe('7');

    const ids: number[] = rows.map((r) => r.trade_id);
    let uri: string | undefined = body.next_uri;
    while (uri) {
      const page: Json = await (await fetch(uri, { headers: { 'x-dune-api-key': h.key } })).json();
      ids.push(...page.result.rows.map((r: Json) => r.trade_id));
      uri = page.next_uri;
    }
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => 3 + i * 5));
  });

  it('supports OR, parentheses, IN, LIKE, IS NULL and timestamps as the results show them', async () => {
    const filters = "(token IN ('DAI', 'UNI') or route like 'limit%') and route is not null and block_time < '2024-01-01 01:00:00.000 UTC'";
    const { body } = await results(q({ filters }));
    const rows: Json[] = body.result.rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(['DAI', 'UNI'].includes(r.token) || r.route.startsWith('limit')).toBe(true);
      expect(r.block_time < '2024-01-01 01:00:00.000 UTC').toBe(true);
    }
    const nulls = await results(q({ filters: 'route is null', limit: '1' }));
    expect(nulls.body.result.metadata.total_row_count).toBe(Math.floor(5000 / 11));
  });

  it('sorts, with ties kept in one stable order across pages', async () => {
    const first = await results(q({ sort_by: 'chain desc, amount_usd', limit: '1000' }));
    const second = await h.get(new URL(first.body.next_uri).pathname + new URL(first.body.next_uri).search);
    const rows: Json[] = [...first.body.result.rows, ...second.body.result.rows];
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      expect(a.chain > b.chain || (a.chain === b.chain && a.amount_usd <= b.amount_usd)).toBe(true);
    }
    expect(new Set(rows.map((r) => r.trade_id)).size).toBe(2000);
    // asked again, the sort is a view made once: the same rows in the same order as sorted straight
    const again = await results(q({ sort_by: 'chain desc, amount_usd', limit: '1000' }));
    expect(again.body.result.rows).toEqual(first.body.result.rows);
    const filtered = q({ filters: "chain = 'base'", sort_by: 'amount_usd desc', limit: '7', offset: '3' });
    const [straight, viewed] = [await results(filtered), await results(filtered)];
    expect(viewed.body).toEqual(straight.body);
  });

  it('returns only the asked columns, in the asked order, and fewer bytes', async () => {
    const all = await results(q({ limit: '10' }));
    const some = await results(q({ columns: 'is_buy,trade_id', limit: '10' }));
    expect(Object.keys(some.body.result.rows[0])).toEqual(['is_buy', 'trade_id']);
    expect(some.body.result.metadata.column_names).toEqual(['is_buy', 'trade_id']);
    expect(some.body.result.metadata.column_types).toEqual(['boolean', 'bigint']);
    expect(some.body.result.metadata.datapoint_count).toBe(20);
    expect(some.body.result.metadata.result_set_bytes).toBeLessThan(all.body.result.metadata.result_set_bytes);
  });

  it('refuses NOT, unknown columns, bad operators, parentheses and sample sizes, with their positions', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ filters: "chain NOT IN ('base')" }, /^filters: NOT is not supported.* at position 7$/],
      [{ filters: "token not like 'D%'" }, /^filters: NOT is not supported.* at position 7$/],
      [{ filters: 'nope = 1' }, /^filters: unknown column "nope" .* at position 1$/],
      [{ filters: 'trade_id == 1' }, /^filters: unknown operator '==' .* at position 10$/],
      [{ filters: '(trade_id = 1' }, /^filters: unbalanced parenthesis: '\(' is never closed at position 1$/],
      [{ sort_by: 'trade_id, nope desc' }, /^sort_by: unknown column "nope" .* at position 11$/],
      [{ columns: 'trade_id,nope' }, /^columns: unknown column "nope" .* at position 10$/],
      [{ filters: "trade_id = 'abc'" }, /^filters: trade_id holds numbers \(bigint\); 'abc' is not a number at position 12$/],
      // past the levels the language reads: DuckDB refused a thousand as a server error
      [
        { filters: `${'(trade_id = 1 or '.repeat(500)}trade_id = 2${')'.repeat(500)}` },
        new RegExp(`^filters: parentheses nest deeper than ${MAX_FILTER_NESTING} levels at position ${MAX_FILTER_NESTING * 17 + 1}$`),
      ],
      [
        { sample_count: '9007199254740993' },
        /^sample_count must be a positive integer of at most 9007199254740991, got '9007199254740993'$/,
      ],
      [{ sample_count: '99999999999999999999' }, /^sample_count must be a positive integer/],
    ];
    for (const [params, message] of cases) {
      const { status, body } = await results(q(params));
      expect(status, JSON.stringify(params)).toBe(400);
      expect(body.error).toMatch(message);
    }
  });

  it('finds no way into the SQL', async () => {
    const attempts = [
      "chain = 'x'' or 1=1 --'",
      "chain = 'base'; drop table x",
      'chain = base',
      '"trade_id"" = 1 or ""trade_id" = 1',
      "chain in ('a') union select * from duckdb_tables()",
    ];
    for (const filters of attempts) {
      const { status, body } = await results(q({ filters }));
      if (status === 200) expect(body.result.metadata.total_row_count).toBe(0);
      else expect(status).toBe(400);
    }
    const { body } = await results(q({ sort_by: 'trade_id; drop table x' }));
    expect(body.error).toMatch(/^sort_by: unexpected character ';'/);
    const after = await results(q({ limit: '1' }));
    expect(after.body.result.metadata.total_row_count).toBe(5000);
  });
});

describe("Dune's datapoint cap", () => {
  // 400 columns: a page holds 625 rows of them under the cap, and 2,000 (the harness's page cap) past it
  const WIDE = 400;
  let wide: string;
  beforeAll(async () => {
    const columns = Array.from({ length: WIDE }, (_, i) => `range + ${i} AS c${i}`).join(', ');
    const run = await h.post('/api/v1/sql/execute', { sql: `SELECT ${columns} FROM range(3000)` });
    wide = run.body.execution_id;
    await h.waitUntilFinished(wide);
  });
  const page = (query: string, csv = false) => h.get(`/api/v1/execution/${wide}/results${csv ? '/csv' : ''}?${query}`);
  const capped = MAX_PAGE_DATAPOINTS / WIDE;

  it('makes a JSON page of many columns shorter, with the next offset where the rest starts', async () => {
    const { body } = await page('limit=1000&offset=10');
    expect(body.result.rows).toHaveLength(capped);
    expect(body.result.rows[0].c0).toBe(10);
    expect(body.result.metadata.datapoint_count).toBe(MAX_PAGE_DATAPOINTS);
    expect(body.next_offset).toBe(10 + capped);
    expect(new URL(body.next_uri).searchParams.get('offset')).toBe(String(10 + capped));
  });

  it('does the same for a CSV page, in its headers', async () => {
    const response = await fetch(`${h.service.baseUrl}/api/v1/execution/${wide}/results/csv?limit=1000`, {
      headers: { 'x-dune-api-key': h.key },
    });
    expect((await response.text()).trimEnd().split('\n')).toHaveLength(1 + capped);
    expect(response.headers.get('x-dune-next-offset')).toBe(String(capped));
  });

  it('holds a page to the rows alone when asked to ignore the cap, or when fewer columns are asked', async () => {
    const ignored = await page('limit=1000&ignore_max_datapoints_per_request=TRUE');
    expect(ignored.body.result.rows).toHaveLength(1000);
    const some = await page('limit=1000&columns=c0,c1');
    expect(some.body.result.rows).toHaveLength(1000);
    const off = await page('limit=1000&ignore_max_datapoints_per_request=false');
    expect(off.body.result.rows).toHaveLength(capped);
  });
});

describe('sample_count', () => {
  it('answers an approximate uniform sample without a next page, with columns allowed', async () => {
    const { status, body } = await results(q({ sample_count: '500', columns: 'trade_id' }));
    expect(status).toBe(200);
    const ids: number[] = body.result.rows.map((r: Json) => r.trade_id);
    // each row is kept with probability 0.1; 500 ± 150 fails with a chance far below one in a million
    expect(ids.length).toBeGreaterThan(350);
    expect(ids.length).toBeLessThanOrEqual(500);
    expect(Object.keys(body.result.rows[0])).toEqual(['trade_id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(body).not.toHaveProperty('next_uri');
    expect(body).not.toHaveProperty('next_offset');
  });

  it('sorts a sample when asked', async () => {
    const { body } = await results(q({ sample_count: '300', sort_by: 'trade_id desc', columns: 'trade_id' }));
    const ids: number[] = body.result.rows.map((r: Json) => r.trade_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('answers the whole result when it is smaller than the sample', async () => {
    const small = await h.execute(PARAMETER_QUERY);
    await h.waitUntilFinished(small);
    const whole = await h.get(`/api/v1/execution/${small}/results`);
    const { body } = await h.get(`/api/v1/execution/${small}/results?sample_count=1000`);
    expect(body.result.rows).toEqual(whole.body.result.rows);
  });

  it('refuses sample_count with limit, offset or filters', async () => {
    for (const extra of ['limit=10', 'offset=5', "filters=chain='base'"]) {
      const { status, body } = await results(`sample_count=10&${extra}`);
      expect(status).toBe(400);
      expect(body.error).toMatch(new RegExp(`^sample_count cannot be used with ${extra.split('=')[0]}`));
    }
  });
});

describe('CSV', () => {
  it('answers a header and the rows, with pagination in headers', async () => {
    const response = await fetch(
      `${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=3&columns=trade_id,route,block_time,trader`,
      { headers: { 'x-dune-api-key': h.key } },
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    const lines = text.split('\n');
    expect(lines[0]).toBe('trade_id,route,block_time,trader');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    expect(lines[1]).toMatch(/^1,limit order,2024-01-01 00:08:37.000 UTC,0x[0-9a-f]{32}$/);
    expect(response.headers.get('x-dune-next-offset')).toBe('3');
    const next = new URL(response.headers.get('x-dune-next-uri')!);
    expect(next.pathname).toBe(`/api/v1/execution/${executionId}/results/csv`);
    expect(next.searchParams.get('columns')).toBe('trade_id,route,block_time,trader');
  });

  it('quotes fields as RFC 4180 says and leaves nulls empty', async () => {
    const response = await fetch(
      `${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv?filters=${encodeURIComponent('trade_id = 11')}&columns=trade_id,route`,
      { headers: { 'x-dune-api-key': h.key } },
    );
    expect(await response.text()).toBe('trade_id,route\n11,\n');
    expect(response.headers.get('x-dune-next-offset')).toBeNull();
  });

  it('refuses a result that is not ready', async () => {
    const created = await h.post('/api/v1/query', { name: 'fails', query_sql: 'SELECT no_such_column' });
    const failing = await h.execute(created.body.query_id, {});
    await h.waitUntilFinished(failing);
    const { status, body } = await h.get(`/api/v1/execution/${failing}/results/csv`);
    expect(status).toBe(400);
    expect(body.error).toBe('Query state is QUERY_STATE_FAILED, cannot provide CSV result');
  });
});

describe('latest result by query', () => {
  it("answers a run of the query's latest version only: after an edit, none until it runs again", async () => {
    const created = await h.post('/api/v1/query', { name: 'versioned', query_sql: 'SELECT 1 AS one' });
    const id = created.body.query_id as number;
    const first = await h.execute(id, {});
    await h.waitUntilFinished(first);
    expect((await h.get(`/api/v1/query/${id}/results`)).body.execution_id).toBe(first);

    const edited = await h.post(`/api/v1/query/${id}`, { query_sql: 'SELECT 2 AS two' }, { method: 'PATCH' });
    expect(edited.status).toBe(200);
    expect(await h.get(`/api/v1/query/${id}/results`)).toEqual({
      status: 404,
      body: { error: 'not found: No execution found for the latest version of the given query' },
    });

    const second = await h.execute(id, {});
    await h.waitUntilFinished(second);
    const latest = await h.get(`/api/v1/query/${id}/results`);
    expect(latest.body.execution_id).toBe(second);
    expect(latest.body.result.rows).toEqual([{ two: 2 }]);
  });

  it('answers the latest result of the query, for the given params.* values', async () => {
    const base = await h.execute(PARAMETER_QUERY, { query_parameters: { chain: 'base', min_usd: '0' } });
    await h.waitUntilFinished(base);
    const polygon = await h.execute(PARAMETER_QUERY, { query_parameters: { chain: 'polygon', min_usd: '0' } });
    await h.waitUntilFinished(polygon);

    const latest = await h.get(`/api/v1/query/${PARAMETER_QUERY}/results?limit=5`);
    expect(latest.body.execution_id).toBe(polygon);
    expect(latest.body.result.rows).toHaveLength(5);
    expect(new URL(latest.body.next_uri).pathname).toBe(`/api/v1/execution/${polygon}/results`);

    const chosen = await h.get(`/api/v1/query/${PARAMETER_QUERY}/results?params.chain=base&params.min_usd=0`);
    expect(chosen.body.execution_id).toBe(base);

    const csv = await fetch(`${h.service.baseUrl}/api/v1/query/${PARAMETER_QUERY}/results/csv?params.chain=base&params.min_usd=0`, {
      headers: { 'x-dune-api-key': h.key },
    });
    expect((await csv.text()).split('\n')[0]).toBe('day,trades,volume_usd');

    const none = await h.get(`/api/v1/query/${PARAMETER_QUERY}/results?params.chain=optimism&params.min_usd=0`);
    expect(none).toEqual({ status: 404, body: { error: 'not found: No execution found for the latest version of the given query' } });
    const unknown = await h.get(`/api/v1/query/${PARAMETER_QUERY}/results?params.nope=1`);
    expect(unknown).toEqual({ status: 400, body: { error: 'unknown parameters (nope)' } });
  });

  it('accepts and ignores params.* on execution results', async () => {
    const { status } = await results('limit=1&params.chain=base');
    expect(status).toBe(200);
  });
});
