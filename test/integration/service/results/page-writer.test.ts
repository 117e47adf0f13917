import { readdirSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPage } from '../../../../main/service/results/json-lines.ts';
import type { PageRows } from '../../../../main/service/results/page-rows.ts';
import { PageWriter } from '../../../../main/service/results/page-writer.ts';
import { rowBytesSql, type ResultColumn } from '../../../../main/service/results/row-bytes.ts';
import { openTypedRows, ROWS, type TypedRows } from './typed-rows.ts';

// Pages are written two ways: short JSON pages by one statement, the rest by COPY, with columns
// written as they are where the page's values allow; large pages of a range in parts at once. All
// must give the same text.

let connection: DuckDBConnection;
let dir: string;
let writer: PageWriter;
let columns: ResultColumn[];

const range = (from: number, to: number, limit = to - from): PageRows => ({
  sql: `SELECT *, rowid AS __row FROM t WHERE rowid >= ${from} AND rowid < ${to}`,
  params: [],
  orderBy: '__row',
  inOrder: true,
  limit,
});

let rows: TypedRows;
beforeAll(async () => {
  rows = await openTypedRows();
  ({ connection, columns, dir, writer } = rows);
});
afterAll(() => rows.close());

describe('JSON pages', () => {
  it('are the same text whether written by one statement or by COPY', async () => {
    // 1,500-row pages are written by one statement; the 3,000-row page by COPY
    const halves = [await writer.json(connection, columns, range(0, 1500)), await writer.json(connection, columns, range(1500, 3000))];
    const whole = await writer.json(connection, columns, range(0, 3000));
    expect(Buffer.concat(whole.body).toString()).toBe(halves.map((page) => Buffer.concat(page.body).toString()).join(','));
    expect(whole.rowCount).toBe(3000);
    expect(whole.bytes).toBe(halves[0]!.bytes + halves[1]!.bytes);
    const rows = JSON.parse(`[${Buffer.concat(whole.body).toString()}]`) as Record<string, unknown>[];
    expect(rows[2600]!.dbl).toBe('NaN');
    expect(rows[2500]).toMatchObject({ unsafe: '9007199254740993', text: 'say "hi", then\nleave', j: { k: [1, 2] }, v: 2500 });
    expect(rows[2501]).toMatchObject({ unsafe: 2501000, tiny: 1, huge: 2501, dec0: 17507, dec2: 312.63, f: 625.25, text: '' });
    expect(rows[3]).toMatchObject({
      ts: '2024-01-02 03:04:08.678 UTC',
      tstz: '2024-01-02 01:04:05.500 UTC',
      list: [3, null],
      struct: { a: 3, b: 'x' },
    });
  });

  it('write a column as it is only when all its values on the page are exact JSON numbers', async () => {
    const fitting = await writer.json(connection, columns, range(0, 2400, 10_000));
    const mixed = await writer.json(connection, columns, range(2400, 3000, 10_000));
    const fittingRows = JSON.parse(`[${Buffer.concat(fitting.body).toString()}]`) as Record<string, unknown>[];
    const mixedRows = JSON.parse(`[${Buffer.concat(mixed.body).toString()}]`) as Record<string, unknown>[];
    expect(fittingRows.map((row) => row.unsafe)).toEqual(Array.from({ length: 2400 }, (_, i) => i * 1000));
    expect(mixedRows[100]!.unsafe).toBe('9007199254740993');
    expect(mixedRows[99]!.unsafe).toBe(2499000);
    expect(mixedRows[200]!.dbl).toBe('NaN');
  });

  it('come in the page order, and count the rows they hold, when the rows are not read in order', async () => {
    const sorted = await writer.json(connection, columns, {
      sql: `SELECT *, rowid AS __row FROM t WHERE tiny > 0 ORDER BY tiny DESC, rowid LIMIT 2500 OFFSET 10`,
      params: [],
      orderBy: 'tiny DESC, __row',
      inOrder: false,
      limit: 2500,
    });
    const tinies = (JSON.parse(`[${Buffer.concat(sorted.body).toString()}]`) as { tiny: number }[]).map((row) => row.tiny);
    expect(tinies).toHaveLength(2500);
    expect(tinies).toEqual([...tinies].sort((a, b) => b - a));
    // a sample gives other rows each time it is read: its size must be that of the rows it gave
    const sample = await writer.json(connection, columns, {
      sql: `SELECT *, rowid AS __row FROM t USING SAMPLE 50% (bernoulli)`,
      params: [],
      orderBy: '__row',
      inOrder: false,
      limit: ROWS,
    });
    const units = (JSON.parse(`[${Buffer.concat(sample.body).toString()}]`) as { unsafe: number | string }[]).map((row) => row.unsafe);
    expect(units.length).toBe(sample.rowCount);
    const ids = units.map((u) => (u === '9007199254740993' ? 2500 : Number(u) / 1000));
    const [[bytes]] = (
      await connection.runAndReadAll(`SELECT sum(${rowBytesSql(columns)})::BIGINT FROM t WHERE rowid IN (${ids.join(',')})`)
    ).getRows() as [[bigint]];
    expect(sample.bytes).toBe(Number(bytes));
  });
});

describe('nested values holding floats', () => {
  it('are the same valid JSON whether written by one statement or by COPY, and their JSON text in CSV', async () => {
    await connection.run(
      "CREATE TABLE floats AS SELECT [i / 4, 'nan'::DOUBLE, NULL] AS list, {'r': 0.1::FLOAT, 'x': CASE WHEN i % 2 = 0 THEN '-inf'::DOUBLE END} AS struct, " +
        "[MAP {'k': 'inf'::DOUBLE}] AS maps FROM range(3000) r(i)",
    );
    const nested = (await connection.runAndReadAll('DESCRIBE floats'))
      .getRows()
      .map(([name, type]) => ({ name: String(name), type: String(type) }));
    const rows = (limit: number): PageRows => ({
      sql: `SELECT *, rowid AS __row FROM floats WHERE rowid < ${limit}`,
      params: [],
      orderBy: '__row',
      inOrder: true,
      limit,
    });
    const copied = Buffer.concat((await writer.json(connection, nested, rows(3000))).body).toString();
    const oneStatement = Buffer.concat((await writer.json(connection, nested, rows(1000))).body).toString();
    expect(copied.startsWith(`${oneStatement},`)).toBe(true);
    const parsed = JSON.parse(`[${copied}]`) as unknown[];
    expect(parsed).toHaveLength(3000);
    expect(parsed.slice(0, 2)).toEqual([
      { list: [0, 'NaN', null], struct: { r: 0.1, x: '-Infinity' }, maps: [{ k: 'Infinity' }] },
      { list: [0.25, 'NaN', null], struct: { r: 0.1, x: null }, maps: [{ k: 'Infinity' }] },
    ]);
    const csv = Buffer.concat((await writer.csv(connection, nested, rows(1))).body).toString();
    expect(csv).toBe('"[0.0,""NaN"",null]","{""r"":0.1,""x"":""-Infinity""}","[{""k"":""Infinity""}]"\n');
  });
});

describe('large pages of a range', () => {
  it('are the same written in parts at once as written whole', async () => {
    for (const format of ['json', 'csv'] as const) {
      const whole = await writer.write(connection, format, columns, range(1_000, 29_000));
      // a page of 10,000 rows or more is written in parts, one a core (this machine has two or more)
      const parted = await writer.range(connection, format, columns, 't', '__row', 1_000, 28_000);
      expect(Buffer.concat(parted.body).equals(Buffer.concat(whole.body)), format).toBe(true);
      expect([parted.rowCount, parted.bytes]).toEqual([whole.rowCount, whole.bytes]);
    }
    // past the end of the table: the parts that find no rows add nothing
    const end = await writer.range(connection, 'json', columns, 't', '__row', 25_000, 20_000);
    expect(end.rowCount).toBe(5_000);
    expect(JSON.parse(`[${Buffer.concat(end.body).toString()}]`)).toHaveLength(5_000);
  });
});

describe('a table made into text whole', () => {
  it('gives the pages DuckDB writes, as slices: text, rows and bytes', async () => {
    const text = (await writer.text(connection, columns, 't', '__row', 64 * 1024 * 1024))!;
    expect(text.starts.length).toBe(ROWS + 1);
    for (const [offset, limit] of [
      [0, 100],
      [12_345, 1],
      [2_450, 100],
      [29_990, 100],
      [0, ROWS],
      [ROWS, 10],
    ] as const) {
      const sliced = textPage(text, offset, limit);
      const written = await writer.json(connection, columns, range(offset, Math.min(ROWS, offset + limit), limit));
      expect(Buffer.concat(sliced.body).toString(), `${offset}+${limit}`).toBe(Buffer.concat(written.body).toString());
      expect([sliced.rowCount, sliced.bytes]).toEqual([written.rowCount, written.bytes]);
    }
  });
});

describe('a text larger than it may be', () => {
  it('is told from the rows and their keys before it is written, and from its file after', async () => {
    expect(await writer.text(connection, columns, 't', '__row', 1_000_000)).toBeNull();
    // 100 rows of 1,000 control characters: 100 KB stored, about 600 KB as JSON (each one \u0001)
    await connection.run(`CREATE TABLE escaped AS SELECT repeat(chr(1), 1000) AS s FROM range(100)`);
    const one = [{ name: 's', type: 'VARCHAR' }];
    expect(await writer.text(connection, one, 'escaped', '__row', 300_000)).toBeNull();
    expect((await writer.text(connection, one, 'escaped', '__row', 1_000_000))?.starts.length).toBe(101);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('CSV pages', () => {
  it('quote what needs it, tell an empty text from a null, and end each line with a break', async () => {
    const page = await writer.csv(
      connection,
      [columns.find((c) => c.name === 'text')!, columns.find((c) => c.name === 'ts')!],
      range(0, 4),
    );
    expect(page.rowCount).toBe(4);
    expect(Buffer.concat(page.body).toString()).toBe(
      '"say ""hi"", then\nleave",2024-01-02 03:04:05.678 UTC\n' +
        '"",2024-01-02 03:04:06.678 UTC\n' +
        ',2024-01-02 03:04:07.678 UTC\n' +
        'plain 3,2024-01-02 03:04:08.678 UTC\n',
    );
  });
});

describe('page files', () => {
  it('are removed once read, and when DuckDB fails to write them', async () => {
    await writer.csv(connection, columns, range(0, 3000));
    await writer.json(connection, columns, range(0, 3000));
    const failing: PageRows = {
      ...range(0, 3000),
      sql: `SELECT *, rowid AS __row, CAST(text AS INTEGER) AS broken FROM t`,
      orderBy: 'broken',
    };
    await expect(writer.csv(connection, columns, { ...failing, inOrder: false })).rejects.toThrow(/Conversion Error/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
