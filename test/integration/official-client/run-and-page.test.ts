import { Paginator, QueryParameter } from '@duneanalytics/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { DEMO_QUERY, PARAMETER_QUERY } from '../service/service-harness.ts';
import { MAX_PAGE_ROWS, POLL, startClientHarness, type ClientHarness } from './client-harness.ts';

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
});
afterAll(() => h.stop());

const ARBITRUM = [QueryParameter.enum('chain', 'arbitrum'), QueryParameter.number('min_usd', 5000)];

describe('official client: run a query and read every page', () => {
  it('runs a query with parameters (plus user): runQuery gives the first page, getLatestResult follows every next_uri', async () => {
    const alice = h.client(KEYS.alice);
    const first = await alice.runQuery({ queryId: PARAMETER_QUERY, query_parameters: ARBITRUM, opts: { ...POLL, batchSize: 7 } });
    expect(first.state).toBe('QUERY_STATE_COMPLETED');
    expect(first.result!.rows).toHaveLength(7);
    // the service links back to the address the client called, which the client then fetches as is
    expect(first.next_uri.startsWith(`${h.service.baseUrl}/api/v1/execution/${first.execution_id}/results?`)).toBe(true);
    expect(first.next_offset).toBe(7);

    const all = await alice.getLatestResult({ queryId: PARAMETER_QUERY, query_parameters: ARBITRUM, opts: { batchSize: 7 } });
    const expected = await h.rowsOf(first.execution_id, KEYS.alice);
    expect(all.execution_id).toBe(first.execution_id);
    expect(expected.length).toBeGreaterThan(2 * 7);
    expect(all.result!.rows).toEqual(expected);
    expect(new Set(all.result!.rows.map((r) => r.day)).size).toBe(expected.length);
    expect(all.result!.metadata.row_count).toBe(expected.length);
    expect(all.result!.metadata.total_row_count).toBe(expected.length);
    // the last page has no link onwards, which is what ends the client's loop
    expect(all.next_uri).toBeUndefined();
    expect(all.next_offset).toBeUndefined();
  });

  it('reads a result larger than the page cap (free user): the client asks 32000 rows, the service lowers it and links on', async () => {
    const bob = h.client(KEYS.bob);
    const page = await bob.runQuery({ queryId: DEMO_QUERY, opts: POLL });
    expect(page.result!.metadata.total_row_count).toBe(5000);
    expect(page.result!.rows).toHaveLength(MAX_PAGE_ROWS);
    expect(page.next_offset).toBe(MAX_PAGE_ROWS);

    const all = await bob.getLatestResult({ queryId: DEMO_QUERY });
    expect(all.execution_id).toBe(page.execution_id);
    expect(all.result!.rows.map((r) => r.trade_id)).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(all.result!.rows).toEqual(await h.rowsOf(page.execution_id, KEYS.bob));
  });

  it("pages by offset with the client's Paginator, whose page count comes from total_row_count", async () => {
    const bob = h.client(KEYS.bob);
    const status = await bob.refreshResults(DEMO_QUERY, {}, POLL.pingFrequency);
    const pages = await Paginator.new(bob.exec, status, 1500);
    expect(pages.maxPage()).toBe(4);
    const rows = [...pages.getCurrentPageValues().values];
    for (let n = 2; n <= pages.maxPage(); n++) rows.push(...(await pages.nextPage())!.values);
    expect(rows).toEqual(await h.rowsOf(status.execution_id, KEYS.bob));
  });

  it('runs a team query with the team key, and another context cannot read its private result', async () => {
    const acme = h.client(KEYS.acme);
    const queryId = await acme.query.createQuery({
      name: 'team numbers',
      query_sql: 'SELECT i AS n, i * i AS square FROM range(1, 26) AS t(i) ORDER BY n',
      is_private: true,
    });
    const first = await acme.runQuery({ queryId, opts: { ...POLL, batchSize: 10 } });
    const all = await acme.getLatestResult({ queryId, opts: { batchSize: 10 } });
    expect(all.execution_id).toBe(first.execution_id);
    expect(all.result!.rows).toEqual(Array.from({ length: 25 }, (_, i) => ({ n: i + 1, square: (i + 1) ** 2 })));

    await expect(h.client(KEYS.alice).getLatestResult({ queryId })).rejects.toThrow(/Status: 404/);
    await expect(h.client(KEYS.alice).exec.getExecutionResults(first.execution_id)).rejects.toThrow(/Status: 404/);
  });
});
