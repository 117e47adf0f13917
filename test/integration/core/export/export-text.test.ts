import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRequest } from '../../../../main/contract/index.ts';
import { fileTarget, type ExportDestinations } from '../../../../main/core/export/destination.ts';
import { duneResultSql, fineTimestampsSql, PAST_128_BITS, UINT256_MAX } from '../../../dune-shapes/dune-result-sql.ts';
import { startDuneShapes, type DuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// CSV exports in a spreadsheet's text (the default: values as the grid shows them, timestamps as
// `YYYY-MM-DD HH:MM:SS.mmm` in UTC) or in the service's, the same bytes from the cache and straight
// from the service's CSV pages. Runs through the Dune-shapes stand-in, which leaves a plain result
// as it is and gives a `name::type` column Dune's type.

const ROWS = 2_500;
const DEMO = `SELECT
  i AS id,
  (i * 1.1)::DECIMAL(10, 2) AS price,
  (i::DOUBLE / 8)::DECIMAL(18, 6) AS amount,
  (i * 0.00001)::DECIMAL(18, 6) AS tiny,
  CASE WHEN i % 7 = 0 THEN NULL ELSE TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 3601) + to_milliseconds(i) END AS traded_at,
  TIMESTAMPTZ '2024-03-01 12:00:00+00' + to_hours(i) AS settled_at,
  i::HUGEINT * 100000000000000000000000000 AS raw_amount,
  i * 0.25::DOUBLE AS ratio,
  i::DOUBLE / 100000 AS small,
  from_hex(printf('%04x', i)) AS tag,
  CASE i % 3 WHEN 0 THEN 'a, "quoted" value' WHEN 1 THEN '' ELSE 'two' || chr(10) || 'lines' END AS note
FROM range(1, ${ROWS + 1}) AS t(i)
ORDER BY i`;
// 98.8 as Dune sends a decimal(38,18) that a double holds, beside its timestamps with a zone
const DUNE_FEES = `SELECT
  i AS "id::bigint",
  CAST(i AS VARCHAR) || '8.8' AS "fee::decimal(38,18)",
  strftime(TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) HOUR, '%Y-%m-%d %H:%M:%S.%g UTC') AS "at::timestamp(3) with time zone"
FROM range(1, 301) AS t(i)
ORDER BY i`;

// as Dune sends them: timestamps finer than milliseconds (and of none), doubles that are no number,
// a real, a decimal of fractional digits only
const DUNE_FINE = `SELECT
  i AS "id::bigint",
  ${fineTimestampsSql('2024-01-01 00:00:00', 'HOUR')},
  CASE i % 4 WHEN 0 THEN 'NaN' WHEN 1 THEN 'Infinity' WHEN 2 THEN '-Infinity' ELSE '2.5' END AS "d::double",
  '0.1' AS "r::real",
  CASE i % 2 WHEN 0 THEN '0.500000000000000000' ELSE '-0.050000000000000000' END AS "x::decimal(18,18)"
FROM range(1, 5) AS t(i)
ORDER BY i`;

let harness: CacheHarness;
let shapes: DuneShapes;
let outDir: string;
const runs: Record<'demo' | 'dune' | 'fees' | 'fine', { cached: string; uncached: string }> = {} as never;
const destinations: ExportDestinations = { choose: async (exportId, name) => fileTarget(join(outDir, name), exportId) };

beforeAll(async () => {
  harness = await startCacheHarness(
    { maxPageRows: 1_000 },
    { exportDestinations: destinations },
    async (baseUrl) => (shapes = await startDuneShapes(baseUrl)),
  );
  outDir = join(harness.dir, 'out');
  mkdirSync(outDir);
  for (const [name, sql] of [
    ['demo', DEMO],
    ['dune', duneResultSql(1_200)],
    ['fees', DUNE_FEES],
    ['fine', DUNE_FINE],
  ] as const) {
    runs[name] = { cached: await harness.runSql(sql), uncached: await harness.runSql(`${sql} `) };
    expect(await harness.cacheWhole(runs[name].cached)).toMatchObject({ state: 'cached' });
  }
});
afterAll(async () => {
  await harness?.close();
  await shapes?.close();
});

type Request = Omit<ChannelRequest<'results:export'>, 'accountId' | 'fileName' | 'executionId'>;
let files = 0;

async function exported(executionId: string, request: Request): Promise<string> {
  const fileName = `export-${(files += 1)}.csv`;
  const started = await harness.call('results:export', { accountId: 'local', executionId, fileName, ...request });
  if (!started.ok) throw new Error(started.error.message);
  expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'done', error: null });
  return readFileSync(join(outDir, fileName), 'utf8');
}

/** The same export from the cache and from the service's pages: the text, once it is the same. */
async function bothWays(name: keyof typeof runs, request: Request): Promise<string> {
  const fromCache = await exported(runs[name].cached, request);
  const fromService = await exported(runs[name].uncached, request);
  expect(fromService).toBe(fromCache);
  return fromCache;
}

/** The service's own CSV of a result, every page. */
async function serviceCsv(executionId: string): Promise<string> {
  let text = '';
  for (let offset = 0; offset < ROWS; offset += 1_000) {
    const response = await fetch(`${shapes.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=1000&offset=${offset}`, {
      headers: { 'X-DUNE-API-KEY': harness.service!.demoApiKey! },
    });
    const page = await response.text();
    text += offset === 0 ? page : page.slice(page.indexOf('\n') + 1);
  }
  return text;
}

const lineOf = (text: string, id: number) => text.split('\n').find((line) => line.startsWith(`${id},`));

describe('CSV export text', () => {
  it('writes values as the grid shows them and timestamps as spreadsheets read them, the same from the cache and the service', async () => {
    const text = await bothWays('demo', { scope: 'all' });
    expect(text.split('\n')[0]).toBe('id,price,amount,tiny,traded_at,settled_at,raw_amount,ratio,small,tag,note');
    expect(lineOf(text, 8)).toBe(
      '8,8.80,1.000000,0.000080,2024-01-01 08:00:08.008,2024-03-01 20:00:00.000,800000000000000000000000000,2,0.00008,0x0008,"two',
    );
    expect(lineOf(text, 7)).toBe('7,7.70,0.875000,0.000070,,2024-03-01 19:00:00.000,700000000000000000000000000,1.75,0.00007,0x0007,""');
    expect(lineOf(text, 9)).toBe(
      '9,9.90,1.125000,0.000090,2024-01-01 09:00:09.009,2024-03-01 21:00:00.000,900000000000000000000000000,2.25,0.00009,0x0009,"a, ""quoted"" value"',
    );
    expect(text).not.toContain(' UTC');
    expect(text.split('\n')).toHaveLength(ROWS + 2 + Math.floor((ROWS + 1) / 3));
  });

  it("keeps the service's own text when asked, byte for byte, from the cache and the service", async () => {
    const text = await bothWays('demo', { scope: 'all', text: 'service' });
    expect(text).toBe(await serviceCsv(runs.demo.cached));
    expect(lineOf(text, 8)).toContain('8,8.8,1.0,8e-05,2024-01-01 08:00:08.008 UTC,');
    expect(lineOf(text, 8)).toContain(',800000000000000000000000000,2.0,8e-05,0x0008,');
  });

  it('writes a view (filters, sort, columns) the same way from both', async () => {
    const view = { scope: 'view' as const, filters: 'id > 2000 AND amount < 300', sortBy: 'price desc', columns: 'traded_at,price,tag' };
    const text = await bothWays('demo', view);
    expect(text.split('\n').slice(0, 3)).toEqual([
      'traded_at,price,tag',
      '2024-04-09 23:40:01.399,2638.90,0x095f',
      '2024-04-09 22:40:00.398,2637.80,0x095e',
    ]);
  });

  it("writes a Dune-shaped result's decimals with their scale, every digit, bytes as hex and times without a zone", async () => {
    // the whole result: the stand-in's service knows its columns only by their `name::type`
    const dune = await bothWays('dune', { scope: 'all' });
    const fields = (id: number) => lineOf(dune, id)!.split(',');
    expect(dune.split('\n')[0]).toBe('id,holder,tx_hash,amount,delta,block_time,legs,token,price,blockchain');
    expect(fields(3).slice(0, 6)).toEqual([
      '3',
      '0x0000000000000000000000000000000000000003',
      expect.stringMatching(/^0xab/),
      UINT256_MAX,
      `-3${PAST_128_BITS}`,
      '2024-01-01 00:03:00.007',
    ]);
    expect(lineOf(dune, 3)).toMatch(/,3\.123456789012345678,ethereum$/);
    const fees = await bothWays('fees', { scope: 'all' });
    expect(fees.split('\n').slice(0, 3)).toEqual([
      'id,fee,at',
      '1,18.800000000000000000,2024-01-01 01:00:00.000',
      '2,28.800000000000000000,2024-01-01 02:00:00.000',
    ]);
    // the service's text from its own pages, as it sent it
    const asSent = await exported(runs.fees.uncached, { scope: 'all', text: 'service' });
    expect(asSent.split('\n').slice(0, 2)).toEqual(['id,fee,at', '1,18.8,2024-01-01 01:00:00.000 UTC']);
  });

  it("writes a timestamp with its type's digits, a float as Dune does and a decimal's leading zero, from the cache and the service", async () => {
    const fine = await bothWays('fine', { scope: 'all' });
    expect(fine.split('\n').slice(0, 5)).toEqual([
      'id,t6,t9,z6,t0,d,r,x',
      '1,2024-01-01 01:00:00.123456,2024-01-01 01:00:00.123456789,2024-01-01 01:00:00.000007,2024-01-01 01:00:00,Infinity,0.1,-0.050000000000000000',
      '2,2024-01-01 02:00:00.123456,2024-01-01 02:00:00.123456789,2024-01-01 02:00:00.000007,2024-01-01 02:00:00,-Infinity,0.1,0.500000000000000000',
      '3,2024-01-01 03:00:00.123456,2024-01-01 03:00:00.123456789,2024-01-01 03:00:00.000007,2024-01-01 03:00:00,2.5,0.1,-0.050000000000000000',
      '4,2024-01-01 04:00:00.123456,2024-01-01 04:00:00.123456789,2024-01-01 04:00:00.000007,2024-01-01 04:00:00,NaN,0.1,0.500000000000000000',
    ]);
    // the service's text from the cache, as Dune sent it
    const asSent = await exported(runs.fine.cached, { scope: 'view', columns: 't6,t9,z6,t0,d,r', text: 'service' });
    expect(asSent.split('\n').slice(0, 3)).toEqual([
      't6,t9,z6,t0,d,r',
      '2024-01-01 01:00:00.123456 UTC,2024-01-01 01:00:00.123456789 UTC,2024-01-01 01:00:00.000007 UTC,2024-01-01 01:00:00 UTC,Infinity,0.1',
      '2024-01-01 02:00:00.123456 UTC,2024-01-01 02:00:00.123456789 UTC,2024-01-01 02:00:00.000007 UTC,2024-01-01 02:00:00 UTC,-Infinity,0.1',
    ]);
  });

  it('refuses a text choice for a typed format, and a text it does not know, saying where', async () => {
    const typed = await harness.call('results:export', {
      accountId: 'local',
      executionId: runs.demo.cached,
      scope: 'all',
      format: 'parquet',
      text: 'service',
    });
    expect(typed).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('text') } });
    const unknown = await harness.call('results:export', {
      accountId: 'local',
      executionId: runs.demo.cached,
      scope: 'all',
      text: 'excel' as never,
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('text') } });
  });
});
