import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Large pages of a stored result are read over HTTP from text the service wrote once, in blocks of
// rows kept in its temporary folder: every row once and in order, in JSON and CSV (quotes and line
// breaks inside values included), short pages from the same text once it is there, and no file
// left when the result expires or the service stops.

const ROWS = 40_000;
const SQL = `select range as n, md5(range::varchar) as h,
  case when range % 7 = 0 then 'a,"b"' || chr(10) || 'c' else 'x' || range end as t from range(${ROWS})`;

let h: Harness;
let executionId: string;
const blockFiles = () => readdirSync(join(h.dataDir, 'tmp')).filter((name) => name.startsWith('block-'));
const expectedText = (n: number) => (n % 7 === 0 ? 'a,"b"\nc' : `x${n}`);

beforeAll(async () => {
  h = await startHarness();
  executionId = (await h.post('/api/v1/sql/execute', { sql: SQL })).body.execution_id;
  await h.waitUntilFinished(executionId);
});
afterAll(() => h?.stop());

describe("a stored result's large pages", () => {
  it('give every row once and in order in JSON, with their bytes adding up to the total', async () => {
    let uri: string | undefined = `${h.service.baseUrl}/api/v1/execution/${executionId}/results?limit=7000`;
    const rows: Json[] = [];
    let bytes = 0;
    let last: Json;
    while (uri !== undefined) {
      last = await (await fetch(uri, { headers: { 'x-dune-api-key': h.key } })).json();
      rows.push(...last.result.rows);
      bytes += last.result.metadata.result_set_bytes;
      uri = last.next_uri;
    }
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: ROWS }, (_, i) => i));
    expect(rows[14]).toMatchObject({ n: 14, t: expectedText(14) });
    expect(rows[15]).toMatchObject({ n: 15, t: 'x15' });
    expect(bytes).toBe(last.result.metadata.total_result_set_bytes);
    expect(blockFiles().length).toBeGreaterThan(0);
  });

  it('give every row once and in order in CSV, values with quotes and line breaks included', async () => {
    const texts: string[] = [];
    for (let offset = 0; offset < ROWS; offset += 7000) {
      texts.push(
        await (
          await fetch(`${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=7000&offset=${offset}`, {
            headers: { 'x-dune-api-key': h.key },
          })
        ).text(),
      );
    }
    const lines = texts.map((text) => text.slice(text.indexOf('\n') + 1)).join('');
    const quoted = (n: number) => (n % 7 === 0 ? '"a,""b""\nc"' : `x${n}`);
    const hashes = await h.post('/api/v1/sql/execute', {
      sql: `select string_agg(md5(range::varchar), ',' order by range) as all_h from range(${ROWS})`,
    });
    await h.waitUntilFinished(hashes.body.execution_id);
    const all = ((await h.get(`/api/v1/execution/${hashes.body.execution_id}/results`)).body.result.rows[0].all_h as string).split(',');
    expect(lines).toBe(all.map((hash, n) => `${n},${hash},${quoted(n)}\n`).join(''));
  });

  it('read short pages from the text once it is kept, the same as written', async () => {
    const page = (await h.get(`/api/v1/execution/${executionId}/results?limit=100&offset=20995`)).body;
    expect(page.result.rows.map((row: Json) => row.n)).toEqual(Array.from({ length: 100 }, (_, i) => 20995 + i));
    expect(page.result.rows[5]).toMatchObject({ n: 21000, t: expectedText(21000) });
    // the same rows of a filter that lets all through are written by DuckDB, not read from the text
    const filtered = (
      await h.get(`/api/v1/execution/${executionId}/results?limit=100&offset=20995&filters=${encodeURIComponent('n >= 0')}`)
    ).body;
    expect(page.result.rows).toEqual(filtered.result.rows);
    expect(page.result.metadata.result_set_bytes).toBe(filtered.result.metadata.result_set_bytes);
  });

  it('leave no block files once the service stops', async () => {
    expect(blockFiles().length).toBeGreaterThan(0);
    // not a restart: the start empties the folder anyway
    await h.service.close();
    expect(blockFiles()).toEqual([]);
  });
});
