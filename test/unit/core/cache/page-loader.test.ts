import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultyPages } from '../../../../main/core/cache/page-inserts.ts';
import { createPageLoader } from '../../../../main/core/cache/page-loader.ts';

// Page files into the staging table: in result order whatever order they arrive in, a quoted
// empty field as an empty text and an empty one as NULL, all of them seen at once when the loader
// finishes, and a page with other rows than its offsets say (or a stop) leaving the table as it was.
// Parquet pages (written here by DuckDB, as a service would) likewise, beside CSV pages in one
// download; one without the result's columns is refused by name.

let dir: string;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
/** Writes the Parquet pages, apart from the loader's connection and its transaction. */
let writer: DuckDBConnection;
const columns = [
  { name: 'id', type: 'BIGINT' },
  { name: 'name', type: 'VARCHAR' },
];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-loader-'));
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  writer = await instance.connect();
  await connection.run('CREATE TABLE t (id BIGINT, name VARCHAR)');
});

afterEach(() => {
  writer.closeSync();
  connection.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

function page(first: number, names: string[]): string {
  const file = join(dir, `${first}.csv`);
  writeFileSync(file, `id,name\n${names.map((name, i) => `${first + i},${name}\n`).join('')}`);
  return file;
}

/** A Parquet page as a service sends one: the rows of `select`, whose columns are c0, c1, … */
async function parquetPage(name: string, select: string): Promise<string> {
  const file = join(dir, `${name}.parquet`);
  await writer.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`);
  return file;
}

/** The connection, the sources of its INSERT statements noted in order, and the files each read. */
function notingInserts(): { spied: DuckDBConnection; inserts: string[]; files: number[] } {
  const inserts: string[] = [];
  const files: number[] = [];
  const spied = new Proxy(connection, {
    get(target, key) {
      if (key === 'run') {
        return (sql: string) => {
          const source = /^INSERT .* FROM (read_\w+)\(\[([^\]]*)\]/s.exec(sql);
          if (source) {
            inserts.push(source[1]!);
            files.push(source[2]!.split(',').length);
          }
          return target.run(sql);
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { spied, inserts, files };
}

const rows = async () =>
  (await connection.runAndReadAll('SELECT id, name FROM t ORDER BY rowid')).getRows().map(([id, name]) => [Number(id), name]);

describe('the page loader', () => {
  it('loads pages in result order as they follow on, whatever order they arrive in', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 2 });
    loader.add({ offset: 4, end: 6 }, page(4, ['e', 'f']), 'csv');
    loader.add({ offset: 2, end: 4 }, page(2, ['c', 'd']), 'csv');
    loader.add({ offset: 0, end: 2 }, page(0, ['a', 'b']), 'csv');
    expect(await loader.finish()).toBe(6);
    expect(await rows()).toEqual([0, 1, 2, 3, 4, 5].map((id) => [id, 'abcdef'[id]]));
    expect(existsSync(join(dir, '0.csv'))).toBe(false);
  });

  it('reads "" as an empty text and an empty field as NULL', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add({ offset: 0, end: 3 }, page(0, ['""', '', '"a,""b"""']), 'csv');
    expect(await loader.finish()).toBe(3);
    expect(await rows()).toEqual([
      [0, ''],
      [1, null],
      [2, 'a,"b"'],
    ]);
  });

  it('goes on after the rows in the table, and loads only what follows on from them', async () => {
    await connection.run("INSERT INTO t VALUES (0, 'a'), (1, 'b')");
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 2, batchRows: 100 });
    loader.add({ offset: 2, end: 4 }, page(2, ['c', 'd']), 'csv');
    loader.add({ offset: 6, end: 8 }, page(6, ['g', 'h']), 'csv');
    expect(await loader.finish()).toBe(4);
    expect(await rows()).toEqual([0, 1, 2, 3].map((id) => [id, 'abcd'[id]]));
  });

  it('refuses pages that hold other rows than their offsets say, and leaves the table as it was', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add({ offset: 0, end: 3 }, page(0, ['a', 'b']), 'csv');
    await expect(loader.finish()).rejects.toBeInstanceOf(FaultyPages);
    expect(await rows()).toEqual([]);
  });

  it('shows the rows to other connections only once it finishes', async () => {
    const other = await instance.connect();
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add({ offset: 0, end: 2 }, page(0, ['a', 'b']), 'csv');
    // the page is loaded while no other load runs; drained waits for that load
    await loader.drained(1);
    expect((await other.runAndReadAll('SELECT count(*) FROM t')).getRows()).toEqual([[0n]]);
    expect(await loader.finish()).toBe(2);
    expect((await other.runAndReadAll('SELECT count(*) FROM t')).getRows()).toEqual([[2n]]);
    other.closeSync();
  });

  it('commits every so many rows with the record of where they end, and a stop takes back only what followed the last commit', async () => {
    const recorded: number[] = [];
    const durable = { rows: 4, millis: Number.MAX_SAFE_INTEGER, record: async (_: DuckDBConnection, at: number) => void recorded.push(at) };
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 2, durable });
    for (let first = 0; first < 6; first += 2) {
      loader.add({ offset: first, end: first + 2 }, page(first, [...'abcdef'.slice(first, first + 2)]), 'csv');
      await loader.drained(1);
    }
    await loader.abandon();
    // the third page came after the commit at four rows, and went with the stop
    expect(recorded).toEqual([4]);
    expect(await rows()).toEqual([0, 1, 2, 3].map((id) => [id, 'abcd'[id]]));
  });

  it('takes back every page it loaded when a later one is refused, or when it is stopped', async () => {
    await connection.run("INSERT INTO t VALUES (0, 'a')");
    const refused = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 2 });
    refused.add({ offset: 1, end: 3 }, page(1, ['b', 'c']), 'csv');
    refused.add({ offset: 3, end: 6 }, page(3, ['d', 'e']), 'csv');
    await expect(refused.finish()).rejects.toBeInstanceOf(FaultyPages);
    expect(await rows()).toEqual([[0, 'a']]);

    const stopped = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 2 });
    stopped.add({ offset: 1, end: 3 }, page(1, ['b', 'c']), 'csv');
    await stopped.abandon();
    expect(await rows()).toEqual([[0, 'a']]);
    // the connection is free for the next loader
    const next = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 2 });
    next.add({ offset: 1, end: 2 }, page(1, ['b']), 'csv');
    expect(await next.finish()).toBe(2);
    expect(await rows()).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
  });
});

describe('the page loader with Parquet pages', () => {
  it('loads a few pages to a statement while they come, and all that wait in one once no more will come', async () => {
    const { spied, files } = notingInserts();
    let loads = 0;
    const loader = createPageLoader({ connection: spied, tableName: 't', columns, from: 0, batchRows: 4, onLoaded: () => loads++ });
    const names = [...'abcdefghijklmn'];
    // the first page goes in as it comes; six more come meanwhile
    for (let first = 0; first < names.length; first += 2)
      loader.add({ offset: first, end: first + 2 }, page(first, names.slice(first, first + 2)), 'csv');
    // two of them (four rows) go in next, as pages may still come
    await loader.drained(5);
    expect(await loader.finish()).toBe(names.length);
    expect(await rows()).toEqual(names.map((name, id) => [id, name]));
    expect(files).toEqual([1, 2, 4]);
    // each load is told of, so that the file's new rows can go to disk while the next pages come
    expect(loads).toBe(3);
  });

  it('with commits asked for, loads the pages waiting at the end in statements of the usual size, each committed', async () => {
    const { spied, files } = notingInserts();
    const recorded: number[] = [];
    const durable = { rows: 4, millis: Number.MAX_SAFE_INTEGER, record: async (_: DuckDBConnection, at: number) => void recorded.push(at) };
    const loader = createPageLoader({ connection: spied, tableName: 't', columns, from: 0, batchRows: 4, durable });
    const names = [...'abcdefghijklmn'];
    for (let first = 0; first < names.length; first += 2)
      loader.add({ offset: first, end: first + 2 }, page(first, names.slice(first, first + 2)), 'csv');
    expect(await loader.finish()).toBe(names.length);
    expect(await rows()).toEqual(names.map((name, id) => [id, name]));
    // without commits, the six pages waiting once the first was in would go in one statement
    expect(files).toEqual([1, 2, 2, 2]);
    expect(recorded).toEqual([6, 10, 14]);
  });

  it('loads a decimal of fractional digits only from the text a service writes of small values (3.1e-05)', async () => {
    // DuckDB reads no text in exponent form as a DECIMAL(p,p)
    await connection.run('CREATE TABLE f (x DECIMAL(10,10))');
    const file = join(dir, 'f.csv');
    writeFileSync(file, 'x\n3.1e-05\n0.5\n\n-1e-10\n');
    const loader = createPageLoader({
      connection,
      tableName: 'f',
      columns: [{ name: 'x', type: 'DECIMAL(10,10)' }],
      from: 0,
      batchRows: 100,
    });
    loader.add({ offset: 0, end: 4 }, file, 'csv');
    expect(await loader.finish()).toBe(4);
    const read = await connection.runAndReadAll('SELECT CAST(x AS VARCHAR) FROM f ORDER BY rowid');
    expect(read.getRows()).toEqual([['.0000310000'], ['.5000000000'], [null], ['-.0000000001']]);
  });

  it('loads values and texts, NULL and an empty text kept apart', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add(
      { offset: 2, end: 4 },
      await parquetPage('2', `SELECT * FROM (VALUES ('2', NULL), ('3', 'd,"e"' || chr(10))) AS p(c0, c1)`),
      'parquet',
    );
    loader.add({ offset: 0, end: 2 }, await parquetPage('0', "SELECT * FROM (VALUES (0::BIGINT, 'a'), (1, '')) AS p(c0, c1)"), 'parquet');
    expect(await loader.finish()).toBe(4);
    expect(await rows()).toEqual([
      [0, 'a'],
      [1, ''],
      [2, null],
      [3, 'd,"e"\n'],
    ]);
    expect(existsSync(join(dir, '0.parquet'))).toBe(false);
  });

  it('loads CSV and Parquet pages in result order, a statement to each run of pages in one format', async () => {
    const { spied, inserts } = notingInserts();
    const loader = createPageLoader({ connection: spied, tableName: 't', columns, from: 0, batchRows: 100 });
    const parquet = (first: number, names: string[]) =>
      parquetPage(
        String(first),
        `SELECT * FROM (VALUES ${names.map((name, i) => `(${first + i}::BIGINT, '${name}')`).join(', ')}) AS p(c0, c1)`,
      );
    loader.add({ offset: 8, end: 10 }, await parquet(8, ['i', 'j']), 'parquet');
    loader.add({ offset: 6, end: 8 }, page(6, ['g', 'h']), 'csv');
    loader.add({ offset: 4, end: 6 }, await parquet(4, ['e', 'f']), 'parquet');
    loader.add({ offset: 2, end: 4 }, await parquet(2, ['c', 'd']), 'parquet');
    loader.add({ offset: 0, end: 2 }, page(0, ['a', 'b']), 'csv');
    expect(await loader.finish()).toBe(10);
    expect(await rows()).toEqual([...'abcdefghij'].map((name, id) => [id, name]));
    expect(inserts).toEqual(['read_csv', 'read_parquet', 'read_csv', 'read_parquet']);
  });

  it('loads pages whose columns differ in type in statements of their own, each cast from its own types', async () => {
    // one statement would read the second page's text as the first page's BIGINT
    await connection.run('CREATE TABLE d (x DOUBLE)');
    const { spied, inserts } = notingInserts();
    const loader = createPageLoader({
      connection: spied,
      tableName: 'd',
      columns: [{ name: 'x', type: 'DOUBLE' }],
      from: 0,
      batchRows: 100,
    });
    loader.add({ offset: 1, end: 2 }, await parquetPage('1', "SELECT '2.5' AS c0"), 'parquet');
    loader.add({ offset: 0, end: 1 }, await parquetPage('0', 'SELECT 1::BIGINT AS c0'), 'parquet');
    expect(await loader.finish()).toBe(2);
    expect((await connection.runAndReadAll('SELECT x FROM d ORDER BY rowid')).getRows()).toEqual([[1], [2.5]]);
    expect(inserts).toEqual(['read_parquet', 'read_parquet']);
  });

  it("refuses a page without the result's columns by name, and leaves the table as it was", async () => {
    await connection.run("INSERT INTO t VALUES (0, 'a')");
    const wrong = [
      ["SELECT 3::BIGINT AS id, 'd' AS name", 'held the columns id, name, not c0 to c1'],
      ['SELECT 3::BIGINT AS c0', 'held the columns c0, not c0 to c1'],
      ["SELECT 3::BIGINT AS c0, 'd' AS c1, 1 AS c2", 'held the columns c0, c1, c2, not c0 to c1'],
      ["SELECT 'd' AS c1, 3::BIGINT AS c0", 'held the columns c1, c0, not c0 to c1'],
      ["SELECT 3::BIGINT AS c0, {'a': 'd'} AS c1", 'held a nested column, c1, where the cache takes only c0 to c1 as text or values'],
    ];
    for (const [index, [select, reason]] of wrong.entries()) {
      const loader = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 100 });
      loader.add(
        { offset: 1, end: 3 },
        await parquetPage(`good-${index}`, "SELECT * FROM (VALUES (1::BIGINT, 'b'), (2, 'c')) AS p(c0, c1)"),
        'parquet',
      );
      loader.add({ offset: 3, end: 4 }, await parquetPage(`wrong-${index}`, select!), 'parquet');
      const refused = await loader.finish().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(FaultyPages);
      expect((refused as Error).message).toBe(`The page of rows 3 to 4 ${reason}.`);
      expect(await rows()).toEqual([[0, 'a']]);
    }
  });

  it('refuses a page that is not a Parquet file, or holds other rows than its offsets say', async () => {
    const notParquet = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    notParquet.add({ offset: 0, end: 2 }, page(0, ['a', 'b']), 'parquet');
    await expect(notParquet.finish()).rejects.toThrow(
      'The page of rows 0 to 2 is not a Parquet file the cache can read (it does not begin and end with PAR1).',
    );

    // framed as Parquet, but not one inside: DuckDB's reason is given
    const garbled = join(dir, 'garbled.page');
    writeFileSync(garbled, Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64, 7), Buffer.from('PAR1')]));
    const inside = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    inside.add({ offset: 0, end: 2 }, garbled, 'parquet');
    await expect(inside.finish()).rejects.toThrow(/^The page of rows 0 to 2 is not a Parquet file the cache can read \(.+\)\.$/);

    // the pages' schemas are read in one statement: the one that is not Parquet is still named
    const amongOthers = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    amongOthers.add({ offset: 2, end: 4 }, page(2, ['c', 'd']), 'parquet');
    amongOthers.add(
      { offset: 0, end: 2 },
      await parquetPage('among', "SELECT * FROM (VALUES (0::BIGINT, 'a'), (1, 'b')) AS p(c0, c1)"),
      'parquet',
    );
    await expect(amongOthers.finish()).rejects.toThrow(
      'The page of rows 2 to 4 is not a Parquet file the cache can read (it does not begin and end with PAR1).',
    );

    const miscounted = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    miscounted.add({ offset: 0, end: 2 }, await parquetPage('0', "SELECT i AS c0, 'x' AS c1 FROM range(3) AS r(i)"), 'parquet');
    const refused = miscounted.finish();
    await expect(refused).rejects.toBeInstanceOf(FaultyPages);
    await expect(refused).rejects.toThrow('The pages of rows 0 to 2 held 3 rows.');
    expect(await rows()).toEqual([]);
  });
});
