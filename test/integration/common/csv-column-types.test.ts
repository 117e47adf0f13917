import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColumnTyping, DUNE_NAME_OF, type CsvColumnType, type CsvDuckdbType } from '../../../main/common/csv-column-types.ts';
import { quoteLiteral } from '../../../main/common/sql-quote.ts';
import { csvColumnTypes } from '../../../main/service/tables/csv-types.ts';
import { listedColumnType } from '../../../main/service/tables/table-input.ts';

// The rule of an uploaded CSV column's type, in SQL as the embedded service applies it to a whole
// file and in TypeScript as the upload form reads one, gives each column the same type: the form's
// types are shown to the user as the table's, and are the schema of a table made in parts.

let connection: DuckDBConnection;
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => connection?.closeSync());

/** Each column's type by the service's SQL and by the TypeScript rule (null: no value). */
async function bothTypes(columns: (string | null)[][]): Promise<{ sql: string[]; ts: CsvDuckdbType[] }> {
  const names = columns.map((_, i) => `c${i}`);
  const length = Math.max(...columns.map((values) => values.length));
  const cell = (value: string | null | undefined) => (value == null ? 'NULL::VARCHAR' : quoteLiteral(value));
  const rows = Array.from({ length }, (_, row) => `(${columns.map((values) => cell(values[row])).join(', ')})`);
  const sql = await csvColumnTypes(connection, `(SELECT * FROM (VALUES ${rows.join(', ')}) AS t(${names.join(', ')}))`, names);
  const ts = columns.map((values) => {
    const typing = new ColumnTyping();
    for (const value of values) typing.add(value);
    return typing.duckdbType;
  });
  return { sql, ts };
}

const P = (power: number, plus = 0n) => String(2n ** BigInt(power) + plus);
const N = (power: number, plus = 0n) => String(-(2n ** BigInt(power)) + plus);

// A value alone in its column, and the type it gets.
const ONE_VALUE: [string, CsvColumnType][] = [
  ['1', 'bigint'],
  ['-20', 'bigint'],
  ['0', 'bigint'],
  ['-0', 'bigint'],
  ['+5', 'varchar'],
  [' 5', 'varchar'],
  ['5 ', 'varchar'],
  ['007', 'varchar'],
  ['0x1f', 'varchar'],
  ['1_000', 'varchar'],
  ['', 'varchar'],
  ['1.5', 'double'],
  ['-0.0', 'double'],
  ['-0.00', 'double'],
  ['0.1', 'double'],
  ['1.50', 'double'],
  ['0.30000000000000004', 'double'],
  ['1e5', 'double'],
  ['1E5', 'double'],
  ['-1e-7', 'double'],
  ['1.2e-3', 'double'],
  ['-12e-5', 'double'],
  ['0.0e-400', 'double'],
  ['5e-324', 'double'],
  ['4.9e-324', 'varchar'],
  ['1.7976931348623157e308', 'double'],
  ['1.7976931348623159e308', 'varchar'],
  ['0e99999999999999999999', 'double'],
  ['1e-99999999999999999999', 'varchar'],
  ['1e400', 'varchar'],
  ['1e-400', 'varchar'],
  ['0.12345678901234567890', 'varchar'],
  ['123456789012345678e-10', 'varchar'],
  ['.5', 'varchar'],
  ['5.', 'varchar'],
  ['NaN', 'varchar'],
  ['Infinity', 'varchar'],
  ['-Infinity', 'varchar'],
  [P(53, -1n), 'bigint'],
  [P(53), 'bigint'],
  [P(53, 1n), 'bigint'],
  [N(53, 1n), 'bigint'],
  [P(63, -1n), 'bigint'],
  [N(63), 'bigint'],
  [P(63), 'int256'],
  [N(63, -1n), 'int256'],
  [P(64), 'int256'],
  ['12345678901234567890123', 'int256'],
  [P(127, -1n), 'int256'],
  [N(127), 'int256'],
  [P(127), 'uint256'],
  [P(128, -1n), 'uint256'],
  [N(127, -1n), 'int256'],
  [P(128), 'int256'],
  [P(255), 'int256'],
  [P(256), 'int256'],
  ['2024-01-01', 'date'],
  ['0000-02-29', 'date'],
  ['2000-02-29', 'date'],
  ['1900-02-29', 'varchar'],
  ['2023-02-29', 'varchar'],
  ['2024-04-31', 'varchar'],
  ['2024-13-01', 'varchar'],
  ['2024-1-01', 'varchar'],
  ['99999-01-01', 'varchar'],
  ['-2024-01-01', 'varchar'],
  ['2024-01-01 10:00:00', 'timestamp'],
  ['2024-01-01T10:00', 'timestamp'],
  ['2024-01-01T10:00:00.123456', 'timestamp'],
  ['2024-01-01T10:00:00.1234560', 'timestamp'],
  ['2024-01-01T10:00:00.1234567', 'varchar'],
  ['2024-01-01T10:00:00Z', 'timestamp'],
  ['2024-01-01T10:00:00.5Z', 'timestamp'],
  ['2024-01-01T10:00:00+02:00', 'timestamp'],
  ['2024-01-01T10:00:00-0230', 'timestamp'],
  ['2024-01-01T10:00:00+02', 'timestamp'],
  ['2024-01-01 10:00:00 UTC', 'timestamp'],
  ['0000-01-01T00:00:00+01:00', 'timestamp'],
  ['2024-01-01T10:00Z', 'varchar'],
  ['2024-01-01T10:00:00 +02:00', 'varchar'],
  ['2024-01-01 10:00:00z', 'varchar'],
  ['2024-01-01 10:00:00UTC', 'varchar'],
  ['2024-01-01 24:00:00', 'varchar'],
  ['2024-01-01 23:59:60', 'varchar'],
  ['2024-01-01T10:00:00+24:00', 'varchar'],
  ['2023-02-29T10:00:00', 'varchar'],
  ['true', 'boolean'],
  ['FALSE', 'boolean'],
  ['True', 'boolean'],
  ['tRuE', 'boolean'],
  ['yes', 'varchar'],
  ['t', 'varchar'],
];

// Columns of several values, and the type each gets.
const COLUMNS: [(string | null)[], CsvColumnType][] = [
  [[null, null], 'varchar'],
  [['1', null, '2'], 'bigint'],
  [[null, '2024-01-01T10:00:00+02:00'], 'timestamp'],
  [['1', '1.5'], 'double'],
  [['1e5', '2'], 'double'],
  [[P(53, -1n), '1.5'], 'double'],
  [[P(53), '1.5'], 'varchar'],
  [[P(53, 1n), '1.5'], 'varchar'],
  [['12345678901234567890123', '1.5'], 'varchar'],
  [['12345678901234567890123', '-5'], 'int256'],
  [[P(127), '-1'], 'int256'],
  [[P(127), '-0'], 'uint256'],
  [[P(128, -1n), '7', null], 'uint256'],
  [[P(255), N(255)], 'int256'],
  [['2024-01-01', '2024-01-01T10:00:00+02:00'], 'timestamp'],
  [['2024-01-01', 'true'], 'varchar'],
  [['true', 'False', null], 'boolean'],
  [['true', '1'], 'varchar'],
  [['1', '2024-01-01'], 'varchar'],
  [['1.5', 'abc'], 'varchar'],
  [['1', ''], 'varchar'],
];

describe('the type of an uploaded CSV column', () => {
  it('is the same by the service and by the upload form, for a value alone', async () => {
    const { sql, ts } = await bothTypes(ONE_VALUE.map(([value]) => [value]));
    expect(ts).toEqual(sql);
    const named = (types: string[]) => ONE_VALUE.map(([value], i) => [value, DUNE_NAME_OF[types[i] as CsvDuckdbType]]);
    expect(named(sql)).toEqual(ONE_VALUE);
  });

  it('is the same by the service and by the upload form, for a column of several values', async () => {
    const { sql, ts } = await bothTypes(COLUMNS.map(([values]) => values));
    expect(ts).toEqual(sql);
    expect(COLUMNS.map(([values], i) => [values, DUNE_NAME_OF[sql[i] as CsvDuckdbType]])).toEqual(COLUMNS);
  });

  it('is the same by both for every way of writing a date and a time tried here', async () => {
    const days = ['2024-02-29', '2023-02-29', '2024-11-31', '1999-12-31'];
    const clocks = ['', 'T23:59', ' 00:00:59', 'T12:30:45.000001', 'T12:30:45.1', ' 24:00:00', 'T12:60', 'T1:00'];
    const zones = ['', 'Z', ' Z', ' UTC', '+05:30', '-0800', '+14', '-23:59', '+24', '+05:60', ' +01'];
    const values = days.flatMap((day) => clocks.flatMap((clock) => zones.map((zone) => day + clock + zone)));
    const { sql, ts } = await bothTypes(values.map((value) => [value]));
    expect(values.map((value, i) => [value, ts[i]])).toEqual(values.map((value, i) => [value, sql[i]]));
  });

  it('is listed by the service by the name the upload form shows', () => {
    for (const [duckdb, dune] of Object.entries(DUNE_NAME_OF)) expect([duckdb, listedColumnType(duckdb)]).toEqual([duckdb, dune]);
  });
});
