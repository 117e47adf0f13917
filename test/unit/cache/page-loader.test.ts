import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPageLoader, MiscountedPages } from '../../../main/core/cache/page-loader.ts';

// Page files into the staging table: in result order whatever order they arrive in, a quoted
// empty field as an empty text and an empty one as NULL, all of them seen at once when the loader
// finishes, and a page with other rows than its offsets say (or a stop) leaving the table as it was.

let dir: string;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
const columns = [
  { name: 'id', type: 'BIGINT' },
  { name: 'name', type: 'VARCHAR' },
];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-loader-'));
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run('CREATE TABLE t (id BIGINT, name VARCHAR)');
});

afterEach(() => {
  connection.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

function page(first: number, names: string[]): string {
  const file = join(dir, `${first}.csv`);
  writeFileSync(file, `id,name\n${names.map((name, i) => `${first + i},${name}\n`).join('')}`);
  return file;
}

const rows = async () => (await connection.runAndReadAll('SELECT id, name FROM t ORDER BY rowid')).getRows().map(([id, name]) => [Number(id), name]);

describe('the page loader', () => {
  it('loads pages in result order as they follow on, whatever order they arrive in', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 2 });
    loader.add({ offset: 4, end: 6 }, page(4, ['e', 'f']));
    loader.add({ offset: 2, end: 4 }, page(2, ['c', 'd']));
    loader.add({ offset: 0, end: 2 }, page(0, ['a', 'b']));
    expect(await loader.finish()).toBe(6);
    expect(await rows()).toEqual([0, 1, 2, 3, 4, 5].map((id) => [id, 'abcdef'[id]]));
    expect(existsSync(join(dir, '0.csv'))).toBe(false);
  });

  it('reads "" as an empty text and an empty field as NULL', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add({ offset: 0, end: 3 }, page(0, ['""', '', '"a,""b"""']));
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
    loader.add({ offset: 2, end: 4 }, page(2, ['c', 'd']));
    loader.add({ offset: 6, end: 8 }, page(6, ['g', 'h']));
    expect(await loader.finish()).toBe(4);
    expect(await rows()).toEqual([0, 1, 2, 3].map((id) => [id, 'abcd'[id]]));
  });

  it('refuses pages that hold other rows than their offsets say, and leaves the table as it was', async () => {
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add({ offset: 0, end: 3 }, page(0, ['a', 'b']));
    await expect(loader.finish()).rejects.toBeInstanceOf(MiscountedPages);
    expect(await rows()).toEqual([]);
  });

  it('shows the rows to other connections only once it finishes', async () => {
    const other = await instance.connect();
    const loader = createPageLoader({ connection, tableName: 't', columns, from: 0, batchRows: 100 });
    loader.add({ offset: 0, end: 2 }, page(0, ['a', 'b']));
    // the page is loaded while no other load runs; drained waits for that load
    await loader.drained(1);
    expect((await other.runAndReadAll('SELECT count(*) FROM t')).getRows()).toEqual([[0n]]);
    expect(await loader.finish()).toBe(2);
    expect((await other.runAndReadAll('SELECT count(*) FROM t')).getRows()).toEqual([[2n]]);
    other.closeSync();
  });

  it('takes back every page it loaded when a later one is refused, or when it is stopped', async () => {
    await connection.run("INSERT INTO t VALUES (0, 'a')");
    const refused = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 2 });
    refused.add({ offset: 1, end: 3 }, page(1, ['b', 'c']));
    refused.add({ offset: 3, end: 6 }, page(3, ['d', 'e']));
    await expect(refused.finish()).rejects.toBeInstanceOf(MiscountedPages);
    expect(await rows()).toEqual([[0, 'a']]);

    const stopped = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 2 });
    stopped.add({ offset: 1, end: 3 }, page(1, ['b', 'c']));
    await stopped.abandon();
    expect(await rows()).toEqual([[0, 'a']]);
    // the connection is free for the next loader
    const next = createPageLoader({ connection, tableName: 't', columns, from: 1, batchRows: 2 });
    next.add({ offset: 1, end: 2 }, page(1, ['b']));
    expect(await next.finish()).toBe(2);
    expect(await rows()).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
  });
});
