import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { DEMO_QUERY, PARAMETER_QUERY, type Json } from '../service/service-harness.ts';
import { POLL, startClientHarness, type ClientHarness } from './client-harness.ts';

let h: ClientHarness;
let executionId: string;
/** The demo trades as the service itself returns them, unfiltered. */
let trades: Json[];
beforeAll(async () => {
  h = await startClientHarness();
  ({ execution_id: executionId } = await h.client(KEYS.alice).runQuery({ queryId: DEMO_QUERY, opts: POLL }));
  trades = await h.rowsOf(executionId, KEYS.alice);
});
afterAll(() => h.stop());

describe('official client: result options', () => {
  it('filters, sorts and selects columns through its arguments, and every page keeps them', async () => {
    const all = await h.client(KEYS.alice).getLatestResult({
      queryId: DEMO_QUERY,
      filters: "chain = 'base' AND amount_usd > 25000",
      // the client joins a list with commas and no space
      sort_by: ['amount_usd desc', 'trade_id'],
      columns: ['trade_id', 'amount_usd', 'chain'],
      opts: { batchSize: 100 },
    });
    const expected = trades
      .filter((t) => t.chain === 'base' && t.amount_usd > 25000)
      .sort((a, b) => b.amount_usd - a.amount_usd || a.trade_id - b.trade_id)
      .map((t) => ({ trade_id: t.trade_id, amount_usd: t.amount_usd, chain: t.chain }));
    expect(expected.length).toBeGreaterThan(300);
    expect(all.execution_id).toBe(executionId);
    expect(all.result!.rows).toEqual(expected);
    expect(all.result!.metadata.column_names).toEqual(['trade_id', 'amount_usd', 'chain']);
    expect(all.result!.metadata.total_row_count).toBe(expected.length);
  });

  it('samples with columns: about the asked size, distinct rows of the result, in one response', async () => {
    const sample = await h.client(KEYS.alice).exec.getExecutionResults(executionId, { sample_count: 200, columns: 'trade_id,chain' });
    const rows = sample.result!.rows;
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThanOrEqual(300);
    expect(Object.keys(rows[0]!)).toEqual(['trade_id', 'chain']);
    const byId = new Map(trades.map((t) => [t.trade_id, t.chain]));
    for (const row of rows) expect(row.chain).toBe(byId.get(row.trade_id));
    expect(new Set(rows.map((r) => r.trade_id)).size).toBe(rows.length);
    expect(sample.next_uri).toBeUndefined();
  });

  it('runs a query with a sample larger than its result, which gives the whole result', async () => {
    const sample = await h.client(KEYS.alice).runQuery({ queryId: PARAMETER_QUERY, sample_count: 1000, opts: POLL });
    expect(sample.result!.rows).toEqual(await h.rowsOf(sample.execution_id, KEYS.alice));
    expect(sample.result!.rows.length).toBeGreaterThan(0);
  });

  it("surfaces the service's refusal of NOT as the client's error", async () => {
    const refused = h.client(KEYS.alice).exec.getExecutionResults(executionId, { filters: "chain NOT IN ('base')", limit: 10 });
    await expect(refused).rejects.toThrow(/Status: 400, Message: \{"error":"filters: NOT is not supported/);
  });
});
