import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTarget, type ExportDestinations } from '../../../../main/core/export/destination.ts';
import { fineTimestampsSql } from '../../../dune-shapes/dune-result-sql.ts';
import { startDuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { readPagesThenCache, startCacheHarness, type CacheHarness } from './cache-harness.ts';

// Values whose text a cache could change on the way: timestamps finer than milliseconds (and of
// none), a real, doubles that are no number. A Dune-shaped result, cached, reads back as Dune's JSON
// pages gave it: in the grid, a profile, a pivot and a JSON lines export.

const ROWS = 8;
const FINE_SQL = `SELECT
  i AS "id::bigint",
  ${fineTimestampsSql('2024-01-01 00:08:37', 'MINUTE')},
  CAST(0.1 * i AS FLOAT) AS "r::real",
  CASE i % 4 WHEN 0 THEN 'nan'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE ELSE CAST(i AS DOUBLE) / 8 END AS "d::double"
FROM range(1, ${ROWS + 1}) t(i)
ORDER BY i`;

let harness: CacheHarness;
let executionId: string;
let read: Awaited<ReturnType<typeof readPagesThenCache>>;
let outDir: string;
const destinations: ExportDestinations = { choose: async (exportId, name) => fileTarget(join(outDir, name), exportId) };

/** The text of an export of the whole result of `execution`. */
async function exported(execution: string, format: 'csv' | 'jsonl', text?: 'spreadsheet' | 'service'): Promise<string> {
  const fileName = `${execution}-${text ?? format}.${format}`;
  const started = await harness.call('results:export', {
    accountId: 'local',
    executionId: execution,
    format,
    text,
    fileName,
    scope: 'all',
  });
  if (!started.ok) throw new Error(started.error.message);
  expect(await harness.exportEnded(started.data.exportId)).toMatchObject({ state: 'done' });
  return readFileSync(join(outDir, fileName), 'utf8');
}

beforeAll(async () => {
  harness = await startCacheHarness({}, { exportDestinations: destinations }, startDuneShapes);
  outDir = harness.dir;
  executionId = await harness.runSql(FINE_SQL);
  read = await readPagesThenCache(harness, executionId, ROWS);
});
afterAll(async () => harness?.close());

describe('fine values in the cache', () => {
  it("read back as Dune's JSON pages gave them: every digit of a timestamp, a real's text, NaN and infinities", () => {
    expect(read.fromCache).toEqual(read.fromPages);
    expect(read.rows.slice(0, 4)).toEqual([
      [
        1,
        '2024-01-01 00:09:37.123456 UTC',
        '2024-01-01 00:09:37.123456789 UTC',
        '2024-01-01 00:09:37.000007 UTC',
        '2024-01-01 00:09:37 UTC',
        0.1,
        'Infinity',
      ],
      [
        2,
        '2024-01-01 00:10:37.123456 UTC',
        '2024-01-01 00:10:37.123456789 UTC',
        '2024-01-01 00:10:37.000007 UTC',
        '2024-01-01 00:10:37 UTC',
        0.2,
        '-Infinity',
      ],
      [
        3,
        '2024-01-01 00:11:37.123456 UTC',
        '2024-01-01 00:11:37.123456789 UTC',
        '2024-01-01 00:11:37.000007 UTC',
        '2024-01-01 00:11:37 UTC',
        0.3,
        0.375,
      ],
      [
        4,
        '2024-01-01 00:12:37.123456 UTC',
        '2024-01-01 00:12:37.123456789 UTC',
        '2024-01-01 00:12:37.000007 UTC',
        '2024-01-01 00:12:37 UTC',
        0.4,
        'NaN',
      ],
    ]);
  });

  it('are profiled and pivoted with the same text', async () => {
    const profile = await harness.call('results:profile', { accountId: 'local', executionId, column: 't9' });
    if (!profile.ok) throw new Error(profile.error.message);
    expect(profile.data).toMatchObject({ min: '2024-01-01 00:09:37.123456789 UTC', max: '2024-01-01 00:16:37.123456789 UTC' });
    const reals = await harness.call('results:profile', { accountId: 'local', executionId, column: 'r' });
    if (!reals.ok) throw new Error(reals.error.message);
    expect(reals.data).toMatchObject({ min: 0.1, max: 0.8 });
    const doubles = await harness.call('results:profile', { accountId: 'local', executionId, column: 'd' });
    if (!doubles.ok) throw new Error(doubles.error.message);
    expect(doubles.data).toMatchObject({ min: '-Infinity', max: 'NaN' });
    const pivot = await harness.call('results:pivot', {
      accountId: 'local',
      executionId,
      rows: [{ column: 't6' }],
      measures: [{ fn: 'max', column: 'z6' }],
      sort: { measure: 0, direction: 'asc' },
    });
    if (!pivot.ok) throw new Error(pivot.error.message);
    expect(pivot.data.groups[1]).toMatchObject({ key: ['2024-01-01 00:09:37.123456 UTC'], cells: [['2024-01-01 00:09:37.000007 UTC']] });
  });

  it('are exported as JSON lines that are JSON: a double that is no number as Dune writes it', async () => {
    const lines = (await exported(executionId, 'jsonl'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.slice(0, 4).map((line) => [line.r, line.d])).toEqual([
      [0.1, 'Infinity'],
      [0.2, '-Infinity'],
      [0.3, 0.375],
      [0.4, 'NaN'],
    ]);
  });
});

describe('a real in a cache written before reals were kept as doubles', () => {
  it('reads, exports and compares as the double its text names, not as its FLOAT', async () => {
    const sql = 'SELECT i AS id, CAST(0.1 * i AS FLOAT) AS r FROM range(1, 4) t(i) ORDER BY i';
    const [older, newer] = [await harness.runSql(sql), await harness.runSql(`${sql} `)];
    for (const id of [older, newer]) expect(await harness.cacheWhole(id)).toMatchObject({ state: 'cached' });
    await harness.restartCore({}, async () => {
      const instance = await DuckDBInstance.create(join(harness.dir, 'core', 'cache', 'results.duckdb'));
      const connection = await instance.connect();
      try {
        const entry = await connection.runAndReadAll('SELECT table_name FROM cache_entries WHERE execution_id = $1', [older]);
        const table = String(entry.getRows()[0]![0]);
        await connection.run(`ALTER TABLE "${table}" ALTER r TYPE FLOAT`);
        await connection.run(`UPDATE cache_entries SET storage_types = ['BIGINT', 'FLOAT'] WHERE execution_id = $1`, [older]);
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    });
    const page = await harness.call('results:getRows', { accountId: 'local', executionId: older, startRow: 0, endRow: 3 });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.data.rows).toEqual([
      [1, 0.1],
      [2, 0.2],
      [3, 0.3],
    ]);
    for (const [format, text] of [
      ['csv', 'spreadsheet'],
      ['csv', 'service'],
      ['jsonl', undefined],
    ] as const) {
      const written = await exported(older, format, text);
      expect(written, `${format} ${text}`).toContain('0.3');
      expect(written, `${format} ${text}`).not.toContain('0.30000001');
    }
    const compared = await harness.call('results:compare', { accountId: 'local', a: older, b: newer, key: 'id' });
    if (!compared.ok) throw new Error(compared.error.message);
    expect(compared.data.byKey).toMatchObject({ changed: 0, same: 3 });
  });
});
