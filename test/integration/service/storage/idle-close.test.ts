import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quoteLiteral } from '../../../../main/common/sql-quote.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// The service's DuckDBs used now and then (the results' writer, the table files') are opened on
// use and closed when idle. A database closed so answers as before on its next use, with its
// setup and session again; it is never closed while something of it is in use or held (a table
// of its own). A setting changed for the whole instance is how these tests see that it was
// closed: the next instance has it as configured.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-idle-close-'));
let db: Database;

beforeEach(() => {
  db = Database.openOnUse(':memory:', [`SET temp_directory = ${quoteLiteral(join(dir, 'spill'))}`], [`SET TimeZone = 'UTC'`]);
});
afterEach(async () => {
  await db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mark = () => db.run(`SET GLOBAL default_order = 'DESC'`);
const hasMark = async () =>
  (await db.rows<{ order: string }>(`SELECT current_setting('default_order') AS order`))[0]!.order.toLowerCase() === 'desc';

describe('a database opened on use', () => {
  it('is closed when idle, and opened again with its setup and session on its next use', async () => {
    await mark();
    await db.closeIdle(0);
    expect(await hasMark()).toBe(false);
    expect(await db.rows(`SELECT current_setting('temp_directory') AS spill`)).toEqual([{ spill: join(dir, 'spill') }]);
    const connection = await db.connect();
    expect((await connection.runAndReadAll(`SELECT current_setting('TimeZone')`)).getRows()[0]![0]).toBe('UTC');
    db.release(connection);
    expect(await db.read('SELECT ? + 1 AS n', [41])).toEqual([{ n: 42 }]);
  });

  it('is not closed before it has been idle that long', async () => {
    await mark();
    await db.closeIdle(60_000);
    expect(await hasMark()).toBe(true);
  });

  it('is not closed while a connection of it is out, nor while a file is attached', async () => {
    await mark();
    const connection = await db.connect();
    await db.closeIdle(0);
    expect(await hasMark()).toBe(true);
    await connection.run(`ATTACH ${quoteLiteral(join(dir, 'attached.duckdb'))} AS attached`);
    db.release(connection);
    await db.closeIdle(0);
    expect(await hasMark()).toBe(true);
    await db.run('DETACH attached');
    await db.closeIdle(0);
    expect(await hasMark()).toBe(false);
  });

  it('is not closed while it holds a table, a temporary one too', async () => {
    for (const kind of ['TABLE', 'TEMP TABLE']) {
      await mark();
      await db.run(`CREATE ${kind} kept AS SELECT 1 AS n`);
      await db.closeIdle(0);
      expect(await hasMark()).toBe(true);
      await db.run('DROP TABLE kept');
      await db.closeIdle(0);
      expect(await hasMark()).toBe(false);
    }
  });

  it('hands out a connection asked for while it counts what it holds only once that is done, and one that works', async () => {
    await mark();
    const closing = db.closeIdle(0);
    // its turn has begun, and its count is with DuckDB
    await new Promise((resolve) => setImmediate(resolve));
    const connection = await db.connect();
    await closing;
    // the connection is of the database as it is now, not of an instance closed under it
    const [[order]] = (await connection.runAndReadAll(`SELECT current_setting('default_order')`)).getRows() as [[string]];
    expect(order.toLowerCase() === 'desc').toBe(await hasMark());
    db.release(connection);
  });

  it('closes without ever having been opened', async () => {
    await db.closeIdle(0);
    await expect(db.close()).resolves.toBeUndefined();
  });

  it('closes for good after the work asked before it, and refuses the work asked after it', async () => {
    await mark();
    const before = db.rows<{ n: bigint }>('SELECT count(*) AS n FROM range(2000000)');
    const closing = db.close();
    // asked as it closes: run on the connection being closed, such work hung the process
    const after = db.rows('SELECT 1 AS n');
    expect(await before).toEqual([{ n: 2000000n }]);
    await closing;
    await expect(after).rejects.toThrow(':memory:: the database was closed');
    await expect(db.connect()).rejects.toThrow('the database was closed');
    await expect(db.close()).resolves.toBeUndefined();
  });
});
