import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRequest, PivotTable } from '../../../../main/contract/index.ts';
import { fileTarget, type ExportDestinations } from '../../../../main/core/export/destination.ts';
import { startCacheHarness, type CacheHarness } from '../cache/cache-harness.ts';

// A pivot's table written to Parquet and JSON lines as the window shows it: only its shown groups,
// in its order, each value exact (a max past 2^64, a decimal sum’s scale), typed as the cache keeps it.

const ROWS = 3_000;
const SQL = `SELECT i, ['a', 'b', 'c'][1 + i % 3] AS chain, ((i % 10) + 0.25)::DECIMAL(10, 2) AS amount,
  i::UHUGEINT * 100000000000000000000::UHUGEINT AS huge
FROM range(${ROWS}) AS t(i)`;

let harness: CacheHarness;
let executionId: string;
let outDir: string;
const destinations: ExportDestinations = { choose: async (exportId, name) => fileTarget(join(outDir, name), exportId) };

beforeAll(async () => {
  harness = await startCacheHarness({}, { exportDestinations: destinations });
  executionId = await harness.runSql(SQL);
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', totalRowCount: ROWS });
  outDir = join(harness.dir, 'out');
  mkdirSync(outDir);
}, 60_000);
afterAll(async () => harness?.close());

type Export = Omit<ChannelRequest<'results:exportPivot'>, 'accountId' | 'executionId'>;
const SETTINGS = {
  rows: [{ column: 'chain' }],
  measures: [{ fn: 'count' as const }, { fn: 'sum' as const, column: 'amount' }, { fn: 'max' as const, column: 'huge' }],
};

async function pivot(): Promise<PivotTable> {
  const answer = await harness.call('results:pivot', { accountId: 'local', executionId, ...SETTINGS });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data;
}

async function exported(request: Export): Promise<unknown[][]> {
  const started = await harness.call('results:exportPivot', { accountId: 'local', executionId, ...request });
  if (!started.ok) throw new Error(started.error.message);
  expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'done', rowsWritten: request.shown.length });
  const reader = await (await DuckDBInstance.create(':memory:')).connect();
  try {
    const file = join(outDir, request.fileName!);
    const read = request.format === 'parquet' ? `'${file}'` : `read_json('${file}', format = 'newline_delimited')`;
    const described = (await reader.runAndReadAll(`DESCRIBE SELECT * FROM ${read}`)).getRows().map((row) => `${row[0]} ${row[1]}`);
    const rows = (await reader.runAndReadAll(`SELECT * FROM ${read}`))
      .getRows()
      .map((row) => row.map((v) => (v === null ? null : String(v))));
    return [described, ...rows];
  } finally {
    reader.closeSync();
  }
}

const sumOf = (predicate: (i: number) => boolean, value: (i: number) => bigint) =>
  Array.from({ length: ROWS }, (_, i) => i)
    .filter(predicate)
    .reduce((total, i) => total + value(i), 0n);
const maxOf = (predicate: (i: number) => boolean, value: (i: number) => bigint) =>
  Array.from({ length: ROWS }, (_, i) => i)
    .filter(predicate)
    .reduce((most, i) => (value(i) > most ? value(i) : most), 0n);
const HUGE = (i: number) => BigInt(i) * 10n ** 20n;
const CENTS = (i: number) => BigInt((i % 10) * 100 + 25);
const decimal = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

describe('a pivot’s table to a file', () => {
  it('writes the shown groups to Parquet in the table’s order, every digit kept (a max past 2^64, a decimal sum’s scale), typed', async () => {
    const table = await pivot();
    const headings = table.measures.map((m) => m.label);
    const shown = table.groups.filter((g) => g.key.length === 0 || g.key[0] === 'b').map((g) => g.key);
    const [columns, ...rows] = await exported({
      ...SETTINGS,
      format: 'parquet',
      shown: [...shown].reverse(),
      headings,
      fileName: 'p.parquet',
    });
    expect(columns).toEqual([
      'Level INTEGER',
      'chain VARCHAR',
      'Rows BIGINT',
      'Count BIGINT',
      'Sum of amount DECIMAL(38,2)',
      'Max of huge DECIMAL(38,0)',
    ]);
    const isB = (i: number) => i % 3 === 1;
    expect(rows).toEqual([
      ['0', null, String(ROWS), String(ROWS), decimal(sumOf(() => true, CENTS)), String(maxOf(() => true, HUGE))],
      ['1', 'b', String(ROWS / 3), String(ROWS / 3), decimal(sumOf(isB, CENTS)), String(maxOf(isB, HUGE))],
    ]);
  });

  it('writes JSON lines the same, and refuses headings that do not fit the pivot’s columns', async () => {
    const table = await pivot();
    const headings = table.measures.map((m) => `≈ ${m.label}`);
    const shown = table.groups.map((g) => g.key);
    const [, ...rows] = await exported({ ...SETTINGS, format: 'jsonl', shown, headings, fileName: 'p.jsonl' });
    expect(rows.map((row) => row.slice(0, 3))).toEqual(table.groups.map((g) => [String(g.key.length), g.key[0] ?? null, String(g.rows)]));
    const refused = await harness.call('results:exportPivot', {
      accountId: 'local',
      executionId,
      ...SETTINGS,
      format: 'parquet',
      shown,
      headings: headings.slice(1),
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringContaining('headings: 2 were given') },
    });
  });
});
