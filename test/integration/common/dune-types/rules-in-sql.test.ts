import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decimalText,
  decimalTextSql,
  floatWord,
  floatWordSql,
  nestedTextSql,
  plainDecimalSql,
  readDecimal,
  realDoubleSql,
  timestampTextSql,
  writeDecimal,
} from '../../../../main/common/dune-types/index.ts';

// The shared rules in DuckDB's SQL write what the same rules in TypeScript write, for the layers
// that have DuckDB write a value's text (the service's pages, the cache's cells and exports).

let connection: DuckDBConnection;
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run("SET TimeZone = 'UTC'");
});
afterAll(() => connection?.closeSync());

const one = async (sql: string) => (await connection.runAndReadAll(`SELECT ${sql}`)).getRows()[0]!;

describe('the shared rules in SQL', () => {
  it("write a decimal with its scale and the zero DuckDB leaves out before a DECIMAL(p,p)'s point", async () => {
    const cases: [string, string][] = [
      ['0.5', 'DECIMAL(2,2)'],
      ['-0.05', 'DECIMAL(18,18)'],
      ['0', 'DECIMAL(5,5)'],
      ['98.8', 'DECIMAL(38,18)'],
      ['-12.5', 'DECIMAL(4,2)'],
      ['7', 'DECIMAL(10,0)'],
    ];
    const row = await one(cases.map(([text, type]) => decimalTextSql(`CAST('${text}' AS ${type})`)).join(', '));
    expect(row).toEqual(cases.map(([text, type]) => decimalText(text, Number(/,(\d+)\)/.exec(type)![1]))));
  });

  it('write a number in plain digits as readDecimal reads it, exponent form too, and none past a scale', async () => {
    const texts = ['3.1E-5', '1.23456789012345678E-1', '-1.5E+2', '98.80', '-0.0', '.5', ' +3 ', '1e18', '1e-1001', 'abc', '', '-'];
    const read = await one(texts.map((text) => plainDecimalSql(`'${text}'`)).join(', '));
    expect(read).toEqual(texts.map((text) => readDecimal(text)).map((value) => (value === null ? null : writeDecimal(value))));
    expect(await one(['98.80', '0.125', '3.1E-5', '1.5E+2'].map((text) => plainDecimalSql(`'${text}'`, 2)).join(', '))).toEqual([
      '98.8',
      null,
      null,
      '150',
    ]);
  });

  it("write a nested value's JSON text without the spaces between its parts, and other text as it is", async () => {
    const texts = ['[ -0.0 , 1.0E-5,\n98.80 ]', '{"a  b" : "c, \\" d", "e": [ ]}', '[leg 1, x]'];
    expect(await one(texts.map((text) => nestedTextSql(`'${text}'`)).join(', '))).toEqual([
      '[-0.0,1.0E-5,98.80]',
      '{"a  b":"c, \\" d","e":[]}',
      '[leg 1, x]',
    ]);
  });

  it('write a double that is no number as Dune does, and nothing for a number', async () => {
    const texts = ['nan', 'inf', '-inf', '0.5'];
    expect(await one(texts.map((text) => floatWordSql(`CAST('${text}' AS DOUBLE)`)).join(', '))).toEqual(texts.map(floatWord));
  });

  it('read a real as the double its shortest text names', async () => {
    expect(await one(['0.1', '3.4028235e38', '1e-7'].map((text) => realDoubleSql(`CAST('${text}' AS FLOAT)`)).join(', '))).toEqual([
      0.1, 3.4028235e38, 1e-7,
    ]);
  });

  it('write a timestamp with as many digits after the second as asked, whichever DuckDB type holds it', async () => {
    const ns = "TIMESTAMP_NS '2024-01-01 00:08:37.123456789'";
    const us = "TIMESTAMPTZ '2024-01-01 00:08:37.123456+00'";
    const written = await one(
      [
        ...[0, 1, 3, 5, 6, 7, 9].map((digits) => timestampTextSql(ns, 'TIMESTAMP_NS', digits, ' UTC')),
        timestampTextSql(us, 'TIMESTAMP WITH TIME ZONE', 6),
        timestampTextSql("TIMESTAMP 'infinity'", 'TIMESTAMP', 4, ' UTC'),
      ].join(', '),
    );
    expect(written).toEqual([
      '2024-01-01 00:08:37 UTC',
      '2024-01-01 00:08:37.1 UTC',
      '2024-01-01 00:08:37.123 UTC',
      '2024-01-01 00:08:37.12345 UTC',
      '2024-01-01 00:08:37.123456 UTC',
      '2024-01-01 00:08:37.1234567 UTC',
      '2024-01-01 00:08:37.123456789 UTC',
      '2024-01-01 00:08:37.123456',
      'infinity',
    ]);
  });
});
