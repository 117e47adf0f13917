import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageCast } from '../../../../main/core/cache/page-casts.ts';
import { storageType } from '../../../../main/core/cache/storage-types.ts';
import type { PageRows } from '../../../../main/service/results/page-rows.ts';
import { startHarness, type Harness } from '../service-harness.ts';
import { openTypedRows, ROWS, type TypedRows } from './typed-rows.ts';

// A client of the CSV endpoints may ask for a page as Parquet instead (the app's download does).
// Casting a Parquet column to the type the app keeps the column as must give what casting the
// CSV page's text gives, and so must casting any column but a timestamp to text: every type the
// service spells its own way, NaN, an integer past 2^53, infinities, decimals of fractional digits
// only (whose small values the CSV writes in exponent form), '' and NULL apart.

let rows: TypedRows;
beforeAll(async () => {
  rows = await openTypedRows();
});
afterAll(() => rows?.close());

const all = (table: string): PageRows => ({
  sql: `SELECT *, rowid AS __row FROM ${table}`,
  params: [],
  orderBy: '__row',
  inOrder: true,
  limit: ROWS,
});

// values whose text is not their type's shortest, or that a Parquet type would change
const AWKWARD_SQL = `SELECT * FROM (VALUES
  (0.1::FLOAT, 0.1 + 0.2, 2::HUGEINT ** 100, 18446744073709551615::UBIGINT, TIMESTAMP '2024-01-02 03:04:05.678912', 12345678901234567890.0123456789::DECIMAL(38,10),
   'infinity'::DATE, 'e2a1c9f0-1b2c-4d5e-8f90-0123456789ab'::UUID, '\\xAA\\x00'::BLOB, INTERVAL 3 DAY, 'ünï "cödé"', -0.0::DOUBLE,
   12345678.91::DECIMAL(10,2), 0.000031::DECIMAL(15,15), 0.0001::DECIMAL(4,4), 0.0000123456789012::DECIMAL(16,16)),
  (3.4e38::FLOAT, 1e-310, -(2::HUGEINT ** 120), 0::UBIGINT, TIMESTAMP '1969-12-31 23:59:59.999999', -0.0000000001::DECIMAL(38,10),
   DATE '0044-03-15', NULL, ''::BLOB, INTERVAL 1 MICROSECOND, '', 'inf'::DOUBLE,
   -0.29::DECIMAL(10,2), -0.123456789012345::DECIMAL(15,15), -0.9999::DECIMAL(4,4), -0.5555555555555555::DECIMAL(16,16)),
  (1e-7::FLOAT, 'nan'::DOUBLE, NULL, NULL, 'infinity'::TIMESTAMP, NULL, NULL, NULL, NULL, NULL, NULL, '-inf'::DOUBLE,
   0.01::DECIMAL(10,2), 0.000000000000001::DECIMAL(15,15), 0.0005::DECIMAL(4,4), 0.0000000000000001::DECIMAL(16,16)),
  (NULL, NULL, NULL, NULL, '-infinity'::TIMESTAMP, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
) v(f, d, h, u, ts, dec, dt, id, b, iv, s, z, d2, d15, d4, d16),
(VALUES (TIMESTAMP_NS '2024-05-06 07:08:09.123456789', TIMESTAMPTZ '2024-05-06 07:08:09.987654+05:30', TIMESTAMP_MS '1900-01-01 00:00:00.001', TIMESTAMP_S '2000-01-01 00:00:01')) w(ns, tz, ms, s0)`;

/** Rows in one of the files and not in the other, both read and cast to `types` as a client would. */
async function differences(types: string[], csvFile: string, parquetFile: string, rowCount: number): Promise<number> {
  const client = await (await DuckDBInstance.create(':memory:')).connect();
  await client.run(`SET TimeZone = 'UTC'`);
  // as the cache does: a Parquet column the service sent as a value is cast from its own type
  const parquetTypes = (await client.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${parquetFile}')`))
    .getRows()
    .map((row) => String(row[1]));
  const castFrom = (sourceTypes?: string[]) => types.map((type, i) => storageCast(`c${i}`, type, i, sourceTypes?.[i])).join(', ');
  const text = types.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const csv = `SELECT ${castFrom()} FROM read_csv('${csvFile}', header = false, auto_detect = false, delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, columns = {${text}})`;
  const parquet = `SELECT ${castFrom(parquetTypes)} FROM read_parquet('${parquetFile}')`;
  const [[missing, added, count]] = (
    await client.runAndReadAll(
      `SELECT (SELECT count(*) FROM (${csv} EXCEPT ALL ${parquet})), (SELECT count(*) FROM (${parquet} EXCEPT ALL ${csv})), (SELECT count(*) FROM (${parquet}))`,
    )
  ).getRows() as [[bigint, bigint, bigint]];
  expect(Number(count)).toBe(rowCount);
  return Number(missing) + Number(added);
}

describe('a page as Parquet', () => {
  it('reads as the CSV page reads, kept as the app keeps each type, or as text (timestamps as timestamps)', async () => {
    const { connection, writer, dir } = rows;
    await connection.run(`CREATE TABLE awkward AS ${AWKWARD_SQL}`);
    for (const [table, rowCount] of [
      ['t', ROWS],
      ['awkward', 4],
    ] as const) {
      const columns = (await connection.runAndReadAll(`DESCRIBE ${table}`))
        .getRows()
        .map(([name, type]) => ({ name: String(name), type: String(type) }));
      const csv = await writer.write(connection, 'csv', columns, all(table));
      const parquet = await writer.write(connection, 'parquet', columns, all(table));
      expect(parquet.rowCount).toBe(rowCount);
      const [csvFile, parquetFile] = [join(dir, 'page.csv'), join(dir, 'page.parquet')];
      writeFileSync(csvFile, Buffer.concat(csv.body));
      writeFileSync(parquetFile, Buffer.concat(parquet.body));
      try {
        expect(
          await differences(
            columns.map((c) => storageType(c.type)),
            csvFile,
            parquetFile,
            rowCount,
          ),
          table,
        ).toBe(0);
        // timestamps are sent as timestamps, not as the CSV's text of them
        const asText = columns.map((c) => (c.type.startsWith('TIMESTAMP') ? storageType(c.type) : 'VARCHAR'));
        expect(await differences(asText, csvFile, parquetFile, rowCount), table).toBe(0);
      } finally {
        rmSync(csvFile);
        rmSync(parquetFile);
      }
    }
  });
});

describe('the CSV endpoint', () => {
  let h: Harness;
  let executionId: string;
  beforeAll(async () => {
    h = await startHarness({ compression: 'always' });
    executionId = (
      await h.post('/api/v1/sql/execute', { sql: 'select range as n, range % 3 = 0 as third, range % 5 as fifth from range(20000)' })
    ).body.execution_id;
    await h.waitUntilFinished(executionId);
  });
  afterAll(() => h?.stop());

  const page = (accept: string) =>
    fetch(`${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=7000&offset=7000`, {
      headers: { 'x-dune-api-key': h.key, accept, 'accept-encoding': 'zstd, gzip' },
    });

  it('answers Parquet to a client that names it, uncompressed, paged as CSV is', async () => {
    const response = await page('application/vnd.apache.parquet, text/csv;q=0.5');
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(response.headers.get('x-dune-next-offset')).toBe('14000');
    const file = join(h.dataDir, 'page.parquet');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const client = await (await DuckDBInstance.create(':memory:')).connect();
    const read = (
      await client.runAndReadAll(`SELECT min(c0), max(c0), count(*), count(*) FILTER (c1) FROM read_parquet('${file}')`)
    ).getRows();
    expect(read).toEqual([[7000n, 13999n, 7000n, 2333n]]);
    // a page is read whole: no Bloom filter, nor a dictionary (DuckDB writes both for a column of few values, c2)
    const written = (
      await client.runAndReadAll(`SELECT count(bloom_filter_offset), count(dictionary_page_offset) FROM parquet_metadata('${file}')`)
    ).getRows();
    expect(written).toEqual([[0n, 0n]]);
  });

  it('answers CSV to any other client, and to one that welcomes CSV more', async () => {
    for (const accept of ['*/*', 'text/csv', 'application/vnd.apache.parquet;q=0.1, text/csv', 'application/vnd.apache.parquet;q=0']) {
      const response = await page(accept);
      expect(response.headers.get('content-type'), accept).toMatch(/^text\/plain/);
      expect((await response.text()).split('\n')[1], accept).toBe('7000,false,0');
    }
  });
});
