import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberText, parseJsonExact } from '../../../../main/common/dune-types/index.ts';
import { fileTarget, type ExportDestinations } from '../../../../main/core/export/destination.ts';
import { duneResultSql, PAST_128_BITS, UINT256_MAX } from '../../../dune-shapes/dune-result-sql.ts';
import { startDuneShapes, type DuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { startCacheHarness, withoutSource, type CacheHarness } from '../cache/cache-harness.ts';

// A result as the hosted service sends it (Dune's types and value text, CSV pages only, next_uri
// paging), cached and read back exactly: every digit, every byte, sorted and filtered as numbers.

const ROWS = 1_200;
let harness: CacheHarness;
let shapes: DuneShapes;
let executionId: string;
const beforeCaching: unknown[] = [];

const PAGES = [
  { startRow: 0, endRow: 30 },
  { startRow: 1_150, endRow: 1_200 },
];

let outDir: string;
const destinations: ExportDestinations = { choose: async (exportId, name) => fileTarget(join(outDir, name), exportId) };

beforeAll(async () => {
  harness = await startCacheHarness(
    { maxPageRows: 500 },
    { exportDestinations: destinations },
    async (baseUrl) => (shapes = await startDuneShapes(baseUrl)),
  );
  executionId = await harness.runSql(duneResultSql(ROWS));
  for (const page of PAGES) beforeCaching.push(await harness.call('results:getRows', { accountId: 'local', executionId, ...page }));
  const cached = await harness.cacheWhole(executionId);
  expect(cached).toMatchObject({ state: 'cached', rowsLoaded: ROWS, totalRowCount: ROWS });
  outDir = join(harness.dir, 'out');
  mkdirSync(outDir);
});
afterAll(async () => harness?.close());

const rows = async (request: { startRow?: number; endRow?: number; sortBy?: string; filters?: string; columns?: string }) => {
  const page = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: ROWS, ...request });
  if (!page.ok) throw new Error(page.error.message);
  return page.data;
};

describe('a Dune-shaped result in the cache', () => {
  it('was downloaded as CSV pages, as the hosted service sends them', () => {
    const csv = shapes.requests.filter((r) => r.path.includes('/results/csv'));
    expect(csv.length).toBeGreaterThanOrEqual(3);
    expect(csv.every((r) => r.accept?.includes('parquet'))).toBe(true); // asked for, and not given
  });

  it("names Dune's types and gives the same cells as the service's JSON pages", async () => {
    for (const [index, page] of PAGES.entries()) {
      const cached = await harness.call('results:getRows', { accountId: 'local', executionId, ...page });
      expect(withoutSource(cached)).toEqual(beforeCaching[index]);
    }
    const first = await rows({ startRow: 0, endRow: 4 });
    expect(first.columns.map((c) => c.type)).toEqual([
      'bigint',
      'varbinary',
      'varbinary',
      'uint256',
      'int256',
      'timestamp(3) with time zone',
      'array(varchar)',
      'row(symbol varchar, raw uint256)',
      'decimal(38,18)',
      'varchar',
    ]);
    expect(first.rows[0]).toEqual([
      1,
      '0x0000000000000000000000000000000000000001',
      `0x${'ab'.repeat(30)}1eef`,
      1,
      `-1${PAST_128_BITS}`,
      '2024-01-01 00:01:00.007 UTC',
      '["leg 1","x"]',
      `{"symbol":"T1","raw":${UINT256_MAX}}`,
      '1.123456789012345678',
      'base',
    ]);
    expect(first.rows[1]![3]).toBe(`2${PAST_128_BITS}`);
    expect(first.rows[2]![3]).toBe(UINT256_MAX);
  });

  it('sorts and filters uint256 and int256 as numbers, bytes as bytes', async () => {
    const sorted = await rows({ sortBy: 'amount', filters: 'amount < 100', columns: 'amount' });
    const amounts = sorted.rows.map((r) => Number(r[0]));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(amounts).toContain(9);
    expect(amounts).toContain(10);
    const huge = await rows({ filters: `amount > ${PAST_128_BITS}`, columns: 'id,amount' });
    expect(huge.totalRowCount).toBeGreaterThan(500);
    expect(huge.rows.every((r) => BigInt(String(r[1])) > BigInt(PAST_128_BITS))).toBe(true);
    const top = await rows({ sortBy: 'amount desc', endRow: 1, columns: 'amount' });
    expect(top.rows[0]![0]).toBe(UINT256_MAX);
    const byDelta = await rows({ sortBy: 'delta', endRow: 1, columns: 'id' });
    expect(byDelta.rows[0]![0]).toBe(ROWS - 1); // the most negative (1,200 itself is null)
    const holder = await rows({ filters: 'holder = 0x000000000000000000000000000000000000002A', columns: 'id,holder' });
    expect(holder.rows).toEqual([[42, '0x000000000000000000000000000000000000002a']]);
    expect((await rows({ filters: 'holder IS NULL' })).totalRowCount).toBe(ROWS / 10);
  });

  it('keeps the decimal(38,18) digits and the timestamp as Dune writes them', async () => {
    const page = await rows({ filters: 'price > 1199.1', columns: 'price,block_time' });
    expect(page.rows).toEqual([['1199.123456789012345678', '2024-01-01 19:59:00.007 UTC']]);
  });
});

describe('a Dune-shaped result worked with', () => {
  it('profiles a uint256 column as numbers: exact range, quartiles and a histogram', async () => {
    const profile = await harness.call('results:profile', { accountId: 'local', executionId, column: 'amount' });
    if (!profile.ok) throw new Error(profile.error.message);
    expect(profile.data).toMatchObject({ kind: 'number', type: 'uint256', nullCount: ROWS / 10, min: 0, max: UINT256_MAX });
    expect(profile.data.quartiles).not.toBeNull();
    expect(profile.data.histogram.length).toBeGreaterThan(1);
    const bytes = await harness.call('results:profile', { accountId: 'local', executionId, column: 'holder' });
    if (!bytes.ok) throw new Error(bytes.error.message);
    expect(bytes.data).toMatchObject({
      kind: 'text',
      min: '0x0000000000000000000000000000000000000001',
      distinct: { count: ROWS - ROWS / 10, exact: true },
    });
  });

  it('charts the sum of a uint256 column by chain', async () => {
    const chart = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'bar',
      x: 'blockchain',
      y: ['amount'],
      aggregation: 'sum',
      filters: 'amount < 1000000',
    });
    if (!chart.ok) throw new Error(chart.error.message);
    const expected = new Map<string, number>();
    for (let i = 1; i <= ROWS; i++) {
      const amount = i % 4 === 1 ? i % 11 : i * 1000;
      if (i % 10 === 0 || i % 4 === 2 || i % 4 === 3 || amount >= 1_000_000) continue;
      const chain = ['ethereum', 'base', 'solana'][i % 3]!;
      expected.set(chain, (expected.get(chain) ?? 0) + amount);
    }
    expect(chart.data.rows).toEqual([...expected].map(([chain, sum]) => [chain, null, sum]).sort((a, b) => Number(b[2]) - Number(a[2])));
    expect(chart.data.inexact).toEqual([]);
    // past 2^53 a sum is a double's estimate, and says so
    const huge = await harness.call('results:chart', {
      accountId: 'local',
      executionId,
      kind: 'bar',
      x: 'blockchain',
      y: ['amount'],
      aggregation: 'sum',
    });
    if (!huge.ok) throw new Error(huge.error.message);
    expect(huge.data.inexact).toEqual(['amount']);
    // int256 values that each fit 128 bits, whose sum would not
    const wide = await harness.runSql(`SELECT 'x' AS "k::varchar", '150000000000000000000000000000000000000' AS "v::int256" FROM range(3)`);
    expect(await harness.cacheWhole(wide)).toMatchObject({ state: 'cached' });
    const summed = await harness.call('results:chart', {
      accountId: 'local',
      executionId: wide,
      kind: 'bar',
      x: 'k',
      y: ['v'],
      aggregation: 'sum',
    });
    expect(summed).toMatchObject({ ok: true, data: { inexact: ['v'] } });
    const sum = summed.ok ? Number(summed.data.rows[0]![2]) : 0;
    expect(Math.abs(sum / 4.5e38 - 1)).toBeLessThan(1e-12);
  });

  it('exports every digit and byte in CSV and JSON lines, as Dune writes them', async () => {
    for (const format of ['csv', 'jsonl'] as const) {
      const fileName = `dune.${format}`;
      const started = await harness.call('results:export', {
        accountId: 'local',
        executionId,
        format,
        fileName,
        scope: 'view',
        filters: 'id = 3',
        columns: 'id,holder,amount,delta,price',
      });
      if (!started.ok) throw new Error(started.error.message);
      expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'done' });
      const text = readFileSync(join(outDir, fileName), 'utf8');
      expect(text, format).toContain('0x0000000000000000000000000000000000000003');
      expect(text, format).toContain(UINT256_MAX);
      expect(text, format).toContain(`-3${PAST_128_BITS}`);
      expect(text, format).toContain('3.123456789012345678');
    }
  });

  it('writes JSON lines with nested values as JSON, and Parquet with uint256 digits as text', async () => {
    const exported = async (format: 'jsonl' | 'parquet') => {
      const fileName = `dune-all.${format}`;
      const started = await harness.call('results:export', {
        accountId: 'local',
        executionId,
        format,
        fileName,
        scope: 'view',
        filters: 'id = 3',
      });
      if (!started.ok) throw new Error(started.error.message);
      expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'done' });
      return join(outDir, fileName);
    };
    const line = parseJsonExact(readFileSync(await exported('jsonl'), 'utf8').trim()) as Record<string, unknown>;
    expect(line.legs).toEqual(['leg 3', 'x']);
    expect(line.holder).toBe('0x0000000000000000000000000000000000000003');
    // past 2^53 as a string of its digits, as a cell has it; inside a nested value, as it came
    expect(line.amount).toBe(UINT256_MAX);
    expect(numberText((line.token as Record<string, unknown>).raw)).toBe(UINT256_MAX);
    const reader = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const rows = (
        await reader.runAndReadAll(`SELECT amount, delta, hex(holder), typeof(amount) FROM '${await exported('parquet')}'`)
      ).getRows();
      expect(rows).toEqual([[UINT256_MAX, `-3${PAST_128_BITS}`, '0000000000000000000000000000000000000003', 'VARCHAR']]);
    } finally {
      reader.closeSync();
    }
  });
});

describe('two Dune-shaped runs compared', () => {
  it('matches rows by a key and shows each changed value as Dune writes it', async () => {
    const other = await harness.runSql(duneResultSql(ROWS).replace(`WHEN 3 THEN '${UINT256_MAX}'`, "WHEN 3 THEN '7'"));
    expect(await harness.cacheWhole(other)).toMatchObject({ state: 'cached' });
    const compared = await harness.call('results:compare', { accountId: 'local', a: executionId, b: other, key: 'id' });
    if (!compared.ok) throw new Error(compared.error.message);
    const changedRows = Array.from({ length: ROWS }, (_, k) => k + 1).filter((i) => i % 4 === 3 && i % 10 !== 0).length;
    expect(compared.data.columns.retyped).toEqual([]);
    expect(compared.data.byKey).toMatchObject({ onlyInA: 0, onlyInB: 0, changed: changedRows, same: ROWS - changedRows });
    expect(compared.data.byKey!.rows[0]).toEqual({ kind: 'changed', key: 3, differences: [{ column: 'amount', a: UINT256_MAX, b: 7 }] });
  });
});

describe('a value that does not fit its declared type', () => {
  it('is kept as received, its column kept as text, and counted; nothing is dropped', async () => {
    const misfit = await harness.runSql(
      `SELECT i AS "id::bigint", CASE WHEN i = 2 THEN 'lots' WHEN i = 3 THEN '1.5' ELSE CAST(i * 10 AS VARCHAR) END AS "amount::uint256", '0x0a' AS "tag::varbinary"
       FROM range(1, 6) t(i) ORDER BY i`,
    );
    expect(await harness.cacheWhole(misfit)).toMatchObject({ state: 'cached', rowsLoaded: 5, valuesNotFitting: [0, 2, 0] });
    const page = await harness.call('results:getRows', { accountId: 'local', executionId: misfit, startRow: 0, endRow: 10 });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.data.rows.map((row) => row[1])).toEqual(['10', 'lots', '1.5', '40', '50']);
    expect(page.data.columns[1]).toEqual({ name: 'amount', type: 'uint256' });
    const status = await harness.call('results:cacheStatus', { accountId: 'local', executionId: misfit });
    expect(status).toMatchObject({ ok: true, data: { valuesNotFitting: [0, 2, 0] } });
    // a result whose values all fit says nothing of the kind
    const fitting = await harness.call('results:cacheStatus', { accountId: 'local', executionId });
    expect(fitting.ok && fitting.data.valuesNotFitting).toBeUndefined();
  });
});

describe('a Dune-shaped result the cache does not hold', () => {
  // the row duneResultSql writes for id i (its nulls left out), as Dune sends it
  const expectedRow = (i: number) => {
    const amount = [String(i * 1000), String(i % 11), `${i}${PAST_128_BITS}`, UINT256_MAX][i % 4]!;
    const time = new Date(Date.UTC(2024, 0, 1) + i * 60_000 + 7).toISOString().replace('T', ' ').replace('Z', ' UTC');
    const row = [
      i,
      `0x${i.toString(16).padStart(40, '0')}`,
      /^\d{1,15}$/.test(amount) ? Number(amount) : amount,
      `-${i}${PAST_128_BITS}`,
      time,
    ];
    return i % 10 === 0 ? [i, null, null, null, null] : row;
  };

  it("is sampled and profiled on the service's sample, every digit and byte as Dune sends them", async () => {
    const uncached = await harness.runSql(duneResultSql(ROWS));
    const sample = await harness.call('results:sample', {
      accountId: 'local',
      executionId: uncached,
      sampleCount: 500,
      columns: 'id,holder,amount,delta,block_time',
    });
    if (!sample.ok) throw new Error(sample.error.message);
    expect(sample.data.columns.map((c) => c.type)).toEqual(['bigint', 'varbinary', 'uint256', 'int256', 'timestamp(3) with time zone']);
    // Dune's sample is approximate in size
    expect(sample.data.rows.length).toBeGreaterThan(300);
    for (const row of sample.data.rows) expect(row).toEqual(expectedRow(Number(row[0])));
    const profile = async (column: string) => {
      const answer = await harness.call('results:profile', { accountId: 'local', executionId: uncached, column });
      if (!answer.ok) throw new Error(`${column}: ${answer.error.message}`);
      expect(answer.data.sampled).toEqual({ rows: expect.any(Number), of: ROWS });
      expect(answer.data.sampled!.rows).toBeGreaterThan(300);
      return answer.data;
    };
    const amount = await profile('amount');
    expect(amount).toMatchObject({ kind: 'number', type: 'uint256', max: UINT256_MAX });
    expect(amount.quartiles).not.toBeNull();
    const delta = await profile('delta');
    expect(delta).toMatchObject({ kind: 'number', type: 'int256' });
    expect(String(delta.max)).toMatch(new RegExp(`^-\\d+${PAST_128_BITS}$`));
    const holder = await profile('holder');
    expect(holder).toMatchObject({ kind: 'text', type: 'varbinary' });
    expect(String(holder.min)).toMatch(/^0x0{30}[0-9a-f]{10}$/);
    expect(await profile('block_time')).toMatchObject({
      kind: 'time',
      min: expect.stringMatching(/^2024-01-0[12] \d\d:\d\d:00\.007 UTC$/),
    });
  });
});
