import { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResultStore } from '../../../../main/service/results/result-store.ts';
import { DEMO_QUERY, startHarness, type Harness, type Json } from '../service-harness.ts';

// The first page of a filter nobody asked before, asked by a room of clients at once: they share
// one read of the page with its count, so the filter runs once in all, not once or more for each
// client (each counted its rows, and the second to come made a view).

const CLIENTS = 16;
let h: Harness;
let executionId: string;

beforeAll(async () => {
  h = await startHarness();
  executionId = await h.execute(DEMO_QUERY);
  await h.waitUntilFinished(executionId);
});
afterAll(() => h.stop());
afterEach(() => vi.restoreAllMocks());

/**
 * Counts the statements the service's DuckDB connections run (runAndReadAll through run) or prepare
 * that match `marker`. With `heldUntil`, each waits for it first (at most 5 s), so that requests
 * come together however loaded the machine is.
 */
function countStatements(marker: RegExp, heldUntil: Promise<void> = Promise.resolve()): { count: number; sql: string[] } {
  const seen = { count: 0, sql: [] as string[] };
  for (const method of ['run', 'prepare'] as const) {
    const original = DuckDBConnection.prototype[method] as (this: DuckDBConnection, sql: string, ...rest: unknown[]) => Promise<unknown>;
    vi.spyOn(DuckDBConnection.prototype, method).mockImplementation(async function (
      this: DuckDBConnection,
      sql: string,
      ...rest: unknown[]
    ) {
      if (!marker.test(sql)) return original.call(this, sql, ...rest);
      seen.count++;
      seen.sql.push(sql);
      await Promise.race([heldUntil, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      return original.call(this, sql, ...rest);
    } as never);
  }
  return seen;
}

const firstPage = (filters: string, offset = 0, sortBy = 'amount_usd desc', id = executionId) =>
  h.get(`/api/v1/execution/${id}/results?${new URLSearchParams({ filters, sort_by: sortBy, limit: '10', offset: String(offset) })}`);

const amounts = (body: Json) => body.result.rows.map((row: Json) => row.amount_usd);

describe('the first page of a new filter, asked by many clients at once', () => {
  it('counts the rows and reads the page once for all of them, the count by the rows sizes', async () => {
    // the filter's statements wait until every client's page is asked of the store
    let asked = 0;
    let allAsked!: () => void;
    const together = new Promise<void>((resolve) => (allAsked = resolve));
    const filteredPage = ResultStore.prototype.filteredPage;
    vi.spyOn(ResultStore.prototype, 'filteredPage').mockImplementation(function (this: ResultStore, ...args) {
      if (++asked === CLIENTS) allAsked();
      return filteredPage.apply(this, args);
    });
    const statements = countStatements(/WHERE[\s\S]*amount_usd/, together);
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => firstPage("chain = 'base' and amount_usd > 1234.5")));
    expect(statements.count).toBe(2);
    expect(statements.sql.filter((sql) => /POSITIONAL JOIN/.test(sql))).toHaveLength(1);
    const alone = await h.get(
      `/api/v1/execution/${executionId}/results?${new URLSearchParams({ filters: "chain = 'base' and amount_usd > 1234.5", sort_by: 'amount_usd desc', limit: '10' })}`,
    );
    for (const { status, body } of answers) {
      expect(status).toBe(200);
      expect(amounts(body)).toEqual(amounts(alone.body));
      expect(body.result.metadata.total_row_count).toBe(alone.body.result.metadata.total_row_count);
    }
    expect(alone.body.result.metadata.total_row_count).toBeGreaterThan(10);
  });

  it('gives each client its own page and count when the filters or pages differ', async () => {
    const asked = Array.from({ length: 8 }, (_, i) => ({ filters: `amount_usd > ${2000 + i * 1000}`, offset: i % 2 === 0 ? 0 : 10 }));
    const answers = await Promise.all(asked.map(({ filters, offset }) => firstPage(filters, offset)));
    const totals = answers.map(({ body }) => body.result.metadata.total_row_count as number);
    for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeLessThan(totals[i - 1]!);
    for (const [i, { body }] of answers.entries()) {
      const again = await firstPage(asked[i]!.filters, asked[i]!.offset);
      expect(amounts(body)).toEqual(amounts(again.body));
      expect(amounts(body).every((amount: number) => amount > 2000 + i * 1000)).toBe(true);
    }
  });

  it('gives every client the error of a filter DuckDB refused, and tries it again for the next', async () => {
    const refused = await Promise.all(Array.from({ length: 4 }, () => firstPage("amount_usd > 'many'")));
    for (const { status } of refused) expect(status).toBe(400);
    expect((await firstPage("amount_usd > 'many'")).status).toBe(400);
  });
});

/** The statements run on the service's DuckDB connections that match `marker`, from now on. */
function runStatements(marker: RegExp): string[] {
  const statements: string[] = [];
  const run = DuckDBConnection.prototype.run;
  vi.spyOn(DuckDBConnection.prototype, 'run').mockImplementation(async function (this: DuckDBConnection, sql: string, ...rest) {
    if (marker.test(sql)) statements.push(sql);
    return run.call(this, sql, ...rest);
  });
  return statements;
}

describe('the first page of a new filter, asked by one client', () => {
  it("is read beside its count by the rows' sizes, and the next page counts nothing", async () => {
    // a result with no view of a sort yet
    const fresh = await h.execute(DEMO_QUERY);
    await h.waitUntilFinished(fresh);
    const statements = runStatements(/WHERE[\s\S]*amount_usd/);
    const first = await firstPage('amount_usd > 4321.5', 0, 'block_time desc', fresh);
    expect(first.status).toBe(200);
    expect(statements).toHaveLength(2);
    expect(statements.filter((sql) => /POSITIONAL JOIN/.test(sql))).toHaveLength(1);
    const counted = statements.length;
    const next = await firstPage('amount_usd > 4321.5', 10, 'block_time desc', fresh);
    expect(next.status).toBe(200);
    expect(next.body.result.metadata.total_row_count).toBe(first.body.result.metadata.total_row_count);
    expect(statements.slice(counted).filter((sql) => /POSITIONAL JOIN|\(SELECT count\(\*\)/.test(sql))).toEqual([]);
    expect(next.body.result.rows).toHaveLength(10);
    expect(next.body.result.rows).not.toEqual(first.body.result.rows);
  });

  it("under a sort filtered before, or another, is counted from that sort's view, as its pages add up", async () => {
    const statements = runStatements(/memory\.main\.view_/);
    const countedFromView = (since: number) => statements.slice(since).some((sql) => /count\(\*\)[\s\S]* WHERE /.test(sql));
    const sortBy = 'token desc, route';
    for (const threshold of [10, 20]) expect((await firstPage(`amount_usd > ${threshold}`, 0, sortBy)).status).toBe(200);
    // the view is made in the background; until then new filters are read as before
    let threshold = 30;
    const first = await vi.waitFor(
      async () => {
        const before = statements.length;
        const answer = await firstPage(`amount_usd > ${++threshold}`, 0, sortBy);
        expect(countedFromView(before)).toBe(true);
        return { filters: `amount_usd > ${threshold}`, sortBy, answer };
      },
      { timeout: 20_000, interval: 100 },
    );
    const before = statements.length;
    const otherSort = { filters: "chain = 'base' and amount_usd > 100", sortBy: 'trade_id desc' };
    const other = { ...otherSort, answer: await firstPage(otherSort.filters, 0, otherSort.sortBy) };
    expect(countedFromView(before)).toBe(true);

    for (const { filters, sortBy: sort, answer } of [first, other]) {
      expect(answer.status).toBe(200);
      const { total_row_count: rows, total_result_set_bytes: bytes } = answer.body.result.metadata;
      // every page of the filter, read from a view of the filter or by the plain path: their rows and bytes add up to the totals
      const pages = [];
      for (let offset = 0; offset < rows; offset += 1_000) {
        const page = await h.get(
          `/api/v1/execution/${executionId}/results?${new URLSearchParams({ filters, sort_by: sort, limit: '1000', offset: String(offset) })}`,
        );
        pages.push(page.body.result);
      }
      expect(pages.reduce((sum, page) => sum + page.rows.length, 0)).toBe(rows);
      expect(pages.reduce((sum, page) => sum + page.metadata.result_set_bytes, 0)).toBe(bytes);
      expect(pages[0].rows.slice(0, 10)).toEqual(answer.body.result.rows);
    }
  });
});
