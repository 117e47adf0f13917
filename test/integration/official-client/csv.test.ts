import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QueryParameter } from '@duneanalytics/client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../service/accounts-fixture.ts';
import { DEMO_QUERY, PARAMETER_QUERY } from '../service/service-harness.ts';
import { MAX_PAGE_ROWS, POLL, startClientHarness, type ClientHarness } from './client-harness.ts';

let h: ClientHarness;
beforeAll(async () => {
  h = await startClientHarness();
});
afterAll(() => h.stop());

/** An execution's whole CSV as the service gives it, read by offsets (not by its next-page headers), one header row. */
async function csvOf(executionId: string, key: string, totalRows: number): Promise<string> {
  let text = '';
  for (let offset = 0; offset === 0 || offset < totalRows; offset += MAX_PAGE_ROWS) {
    const url = `${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=${MAX_PAGE_ROWS}&offset=${offset}`;
    const page = await (await fetch(url, { headers: { 'x-dune-api-key': key } })).text();
    text += offset === 0 ? page : page.slice(page.indexOf('\n') + 1);
  }
  return text;
}

async function latestExecution(queryId: number, key: string, params = '') {
  const { body } = await h.get(`/api/v1/query/${queryId}/results?limit=1${params}`, { headers: { 'x-dune-api-key': key } });
  return { id: body.execution_id as string, totalRows: body.result.metadata.total_row_count as number };
}

describe('official client: CSV', () => {
  it('runQueryCSV runs the query and reads the whole CSV, following x-dune-next-uri past the page cap', async () => {
    const csv = await h.client(KEYS.alice).runQueryCSV({ queryId: DEMO_QUERY, opts: POLL });
    const latest = await latestExecution(DEMO_QUERY, KEYS.alice);
    expect(latest.totalRows).toBeGreaterThan(2 * MAX_PAGE_ROWS);
    expect(csv.data).toBe(await csvOf(latest.id, KEYS.alice, latest.totalRows));
    expect(csv.data.trimEnd().split('\n')).toHaveLength(latest.totalRows + 1);
    expect(csv.next_uri).toBeNull();
  });

  it('gives one CSV page with the next offset and an absolute next URI in its headers', async () => {
    const { id } = await latestExecution(DEMO_QUERY, KEYS.alice);
    const page = await h.client(KEYS.alice).exec.getResultCSV(id, { limit: 2, columns: ['trade_id', 'chain'] });
    expect(page.data).toBe('trade_id,chain\n1,arbitrum\n2,optimism\n');
    expect(page.next_offset).toBe(2);
    const next = new URL(page.next_uri!);
    expect(`${next.origin}${next.pathname}`).toBe(`${h.service.baseUrl}/api/v1/execution/${id}/results/csv`);
    expect(next.searchParams.get('columns')).toBe('trade_id,chain');
  });

  it('reads the latest CSV of a query with filters and columns on every page', async () => {
    // alice's own run (the first test's): another context's runs are never its latest result
    const csv = await h
      .client(KEYS.alice)
      .exec.getLastResultCSV(DEMO_QUERY, { filters: "token = 'DAI'", columns: ['trade_id', 'token'], limit: 300 });
    const { id } = await latestExecution(DEMO_QUERY, KEYS.alice);
    const dai = (await h.rowsOf(id, KEYS.alice)).filter((t) => t.token === 'DAI');
    expect(dai.length).toBeGreaterThan(2 * 300);
    expect(csv.data).toBe(`trade_id,token\n${dai.map((t) => `${t.trade_id},DAI\n`).join('')}`);
  });

  it('downloadCSV (team key) saves the latest result for the given parameters to a file', async () => {
    const acme = h.client(KEYS.acme);
    const parameters = [QueryParameter.enum('chain', 'polygon'), QueryParameter.number('min_usd', 100)];
    await acme.runQuery({ queryId: PARAMETER_QUERY, query_parameters: parameters, opts: POLL });
    const file = join(h.dataDir, 'download.csv');
    await acme.downloadCSV({ queryId: PARAMETER_QUERY, query_parameters: parameters, opts: { batchSize: 5 } }, file);

    const latest = await latestExecution(PARAMETER_QUERY, KEYS.acme, '&params.chain=polygon&params.min_usd=100');
    expect(latest.totalRows).toBeGreaterThan(2 * 5);
    expect(await readFile(file, 'utf8')).toBe(await csvOf(latest.id, KEYS.acme, latest.totalRows));
  });
});
