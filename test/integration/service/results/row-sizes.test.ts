import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilters, parseFilters } from '../../../../main/filter-language/index.ts';
import type { ResultFiles } from '../../../../main/service/results/result-files.ts';
import { ResultStore, type StoredSize } from '../../../../main/service/results/result-store.ts';
import { measureRows } from '../../../../main/service/results/result-writer.ts';
import { rowBytesSql, type ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';
import { TYPED_ROWS_SQL } from './typed-rows.ts';

// A result's file keeps each row's size beside its rows (row-sizes.ts), and a filter's count reads
// them: it must give what counting the rows themselves gives (measureRows), for every type the
// service stores, after a result is cut at its cap, and for a result stored before sizes were kept.

// the typed rows, with columns named as the count names the sizes' column and as the sizes' own,
// and Dune's types as the service keeps them: varbinary as BLOB, uint256 past 2^64 as UHUGEINT,
// int256 as BIGNUM
const SOURCE = `SELECT *, length(text) AS bytes, tiny::INTEGER * 2 AS __size,
  CASE WHEN tiny % 9 = 0 THEN NULL ELSE unhex(md5(unsafe::VARCHAR)) END AS holder,
  (18446744073709551616 + ubig * 1000)::UHUGEINT AS amount, ('-' || repeat('9', 1 + tiny % 60))::BIGNUM AS delta
  FROM (${TYPED_ROWS_SQL})`;
const FILTERS = [
  'tiny < 10',
  'text IS NULL',
  "text like 'plain%' and bytes > 9",
  '__size >= 150 or dec2 > 1000.125',
  'nothing = 1',
  "holder is null or holder like '0x00%'",
  'amount > 18446744073709561616 and delta < -999999',
];

let dir: string;
let source: DuckDBInstance;
let connection: DuckDBConnection;
let files: ResultFiles;
let store: ResultStore;
let columns: ResultColumn[];
/** The whole result's rows and bytes, by counting its rows. */
let whole: StoredSize;

/** Writes the source's rows as the executor does, chunk by chunk, and closes the result at `capBytes`. */
async function write(executionId: string, capBytes = Number.MAX_SAFE_INTEGER) {
  const writer = await store.createWriter(executionId, columns);
  for await (const chunk of await connection.stream(SOURCE)) writer.append(chunk);
  return writer.finish(capBytes);
}

/** The rows that pass `filters` and their bytes: by the store's count, and by counting the rows. */
async function counted(executionId: string, filters: string): Promise<[StoredSize, StoredSize]> {
  const where = compileFilters(parseFilters(filters), columns);
  const table = await files.acquire(executionId);
  try {
    return [await store.count(executionId, columns, where), await files.db.exclusive((c) => measureRows(c, table.sql, columns, where))];
  } finally {
    await files.release(executionId);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-row-sizes-'));
  source = await DuckDBInstance.create(':memory:');
  connection = await source.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  columns = (await connection.runAndReadAll(`DESCRIBE ${SOURCE}`))
    .getRows()
    .map(([name, type]) => ({ name: String(name), type: String(type) }));
  files = await openResults(dir, '256MB');
  store = new ResultStore(files, join(dir, 'pages'));
});
afterAll(async () => {
  connection.closeSync();
  source.closeSync();
  await store.close();
  await Promise.all([files.db.close(), files.writer.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe("a stored result's row sizes", () => {
  it('are written with its rows, and a filter counts by them what its rows give, for every type', async () => {
    const size = await write('whole');
    const table = await files.acquire('whole');
    await files.release('whole');
    expect(table.sizes).not.toBeNull();
    whole = await files.db.exclusive((c) => measureRows(c, table.sql, columns));
    expect(size).toEqual({ ...whole, truncated: false });
    for (const filters of FILTERS) {
      const [bySizes, byRows] = await counted('whole', filters);
      expect(bySizes, filters).toEqual(byRows);
      if (filters !== 'nothing = 1') expect(bySizes.rowCount, filters).toBeGreaterThan(0);
    }
  });

  it('are cut with the rows when a result is cut at its cap, the longest run of first rows within it', async () => {
    const cap = Math.floor(whole.bytes / 3);
    const size = await write('cut', cap);
    expect(size.truncated).toBe(true);
    expect(size.bytes).toBeLessThanOrEqual(cap);
    const [[next]] = (
      await connection.runAndReadAll(`SELECT (${rowBytesSql(columns)})::BIGINT FROM (${SOURCE}) LIMIT 1 OFFSET ${size.rowCount}`)
    ).getRows() as [[bigint]];
    expect(size.bytes + Number(next)).toBeGreaterThan(cap);
    for (const filters of ['tiny >= 0 or tiny is null', ...FILTERS]) {
      const [bySizes, byRows] = await counted('cut', filters);
      expect(bySizes, filters).toEqual(byRows);
    }
    expect((await counted('cut', 'tiny >= 0 or tiny is null'))[0]).toEqual({ rowCount: size.rowCount, bytes: size.bytes });
  });

  it('follow the rows of a result of several row groups, each size by its row', async () => {
    const wide = `SELECT i, repeat('x', (i * 7919) % 50) AS pad FROM range(400000) t(i)`;
    const padColumns = [
      { name: 'i', type: 'BIGINT' },
      { name: 'pad', type: 'VARCHAR' },
    ];
    const writer = await store.createWriter('groups', padColumns);
    for await (const chunk of await connection.stream(wide)) writer.append(chunk);
    await writer.finish(Number.MAX_SAFE_INTEGER);
    for (const [filters, low, high] of [
      ['i < 1000', 0, 1000],
      ['i >= 150000 and i < 150100', 150000, 150100],
      ['i >= 399990', 399990, 400000],
    ] as const) {
      const where = compileFilters(parseFilters(filters), padColumns);
      const [[bytes]] = (
        await connection.runAndReadAll(`SELECT sum(8 + (i * 7919) % 50)::BIGINT FROM range(${low}, ${high}) t(i)`)
      ).getRows() as [[bigint]];
      expect(await store.count('groups', padColumns, where), filters).toEqual({ rowCount: high - low, bytes: Number(bytes) });
    }
  });

  it('are not needed to count a result stored before they were kept', async () => {
    const table = await files.create('older');
    await files.writer.run(`CREATE TABLE ${table.sql} AS ${SOURCE.replace(TYPED_ROWS_SQL, `${TYPED_ROWS_SQL} LIMIT 5000`)}`);
    await files.written('older');
    expect((await files.acquire('older')).sizes).toBeNull();
    await files.release('older');
    for (const filters of FILTERS) {
      const [byStore, byRows] = await counted('older', filters);
      expect(byStore, filters).toEqual(byRows);
    }
  });
});
