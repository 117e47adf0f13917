import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { floatText } from '../../../../main/common/dune-types/index.ts';
import { csvValueExpression } from '../../../../main/core/export/csv-values.ts';

// A float in a CSV export has the grid's text whichever way it is written: from the cache by
// DuckDB's SQL, or from the service's pages in JavaScript. Both are held here to what the grid
// shows, String(value), over doubles of every size.

function doubles(): number[] {
  const values = [
    0,
    2,
    -2,
    0.1,
    1.75,
    8e-5,
    8e-7,
    1e-6,
    1e-7,
    1e20,
    1e21,
    1.5e21,
    123456789012.5,
    5e-324,
    Number.MAX_VALUE,
    -Number.MIN_VALUE,
    2 ** 53 + 2,
    0.1 + 0.2,
  ];
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let exponent = -30; exponent <= 30; exponent += 1) {
    for (let i = 0; i < 8; i += 1)
      values.push((random() < 0.5 ? -1 : 1) * Number((random() * 10).toPrecision(1 + (i % 17))) * 10 ** exponent);
  }
  return values;
}

describe('a float in a CSV export', () => {
  it('has the text the grid shows for it, from the cache and from the service’s text', async () => {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const values = doubles();
      await connection.run(
        `CREATE TABLE t AS SELECT * FROM (VALUES ${values.map((v, i) => `(${i}, CAST('${v}' AS DOUBLE))`).join(', ')}) AS v(i, x)`,
      );
      const expression = csvValueExpression({ name: 'x', type: 'DOUBLE' }, 'spreadsheet');
      const rows = (await connection.runAndReadAll(`SELECT i, CAST(x AS VARCHAR), ${expression} FROM t ORDER BY i`)).getRows();
      const got = rows.map(([i, duckdbText, sql]) => ({
        value: values[Number(i)],
        sql: String(sql),
        fromText: floatText(String(duckdbText)),
      }));
      expect(got).toEqual(values.map((value) => ({ value, sql: String(value), fromText: String(value) })));
      expect(got.length).toBeGreaterThan(480);
    } finally {
      connection.closeSync();
    }
  });

  it('writes what is not a finite number as Dune does, read in either spelling, and reads Trino’s form too', () => {
    expect(['inf', '-inf', 'nan', 'NaN', 'Infinity', '-Infinity', ''].map(floatText)).toEqual([
      'Infinity',
      '-Infinity',
      'NaN',
      'NaN',
      'Infinity',
      '-Infinity',
      '',
    ]);
    expect(['8.0E-5', '2.0', '1.0E21', '-0.0'].map(floatText)).toEqual(['0.00008', '2', '1e+21', '0']);
  });

  it('writes what is not a finite number as Dune does from the cache too, in either text, a FLOAT of an older cache as well', async () => {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      await connection.run(`CREATE TABLE t AS SELECT * FROM (VALUES (1, 'NaN'::DOUBLE, 'NaN'::FLOAT), (2, 'inf'::DOUBLE, 'inf'::FLOAT),
        (3, '-inf'::DOUBLE, '-inf'::FLOAT), (4, 0.1::DOUBLE, 0.1::FLOAT)) AS v(i, x, r)`);
      const texts = ['spreadsheet', 'service'] as const;
      const expressions = texts.flatMap((text) => [
        csvValueExpression({ name: 'x', type: 'DOUBLE' }, text),
        csvValueExpression({ name: 'r', type: 'FLOAT' }, text),
      ]);
      const rows = (await connection.runAndReadAll(`SELECT ${expressions.join(', ')} FROM t ORDER BY i`)).getRows();
      expect(rows).toEqual([
        ['NaN', 'NaN', 'NaN', 'NaN'],
        ['Infinity', 'Infinity', 'Infinity', 'Infinity'],
        ['-Infinity', '-Infinity', '-Infinity', '-Infinity'],
        ['0.1', '0.1', '0.1', '0.1'],
      ]);
    } finally {
      connection.closeSync();
    }
  });
});
