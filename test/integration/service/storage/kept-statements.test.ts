import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../../main/service/storage/duckdb.ts';

// Statements run with values are prepared once per connection and kept. A kept statement must
// answer as a new one would: for the values given now, for the table as it is now, after a failure,
// and after more statements than are kept have come and gone.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-kept-statements-'));
let db: Database;

beforeAll(async () => {
  db = await Database.open(join(dir, 'db.duckdb'), ['CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR)']);
  await db.run(`INSERT INTO t VALUES (1, 'one'), (2, 'two')`);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const byId = (id: number) => db.rows('SELECT * FROM t WHERE id = ?', [id]);

describe('statements kept prepared', () => {
  it('answer for the values given each time, on the shared connection and on pooled ones', async () => {
    expect(await byId(1)).toEqual([{ id: 1, name: 'one' }]);
    expect(await byId(2)).toEqual([{ id: 2, name: 'two' }]);
    expect(await db.read('SELECT name FROM t WHERE id = ?', [2])).toEqual([{ name: 'two' }]);
    expect(await db.read('SELECT name FROM t WHERE id = ?', [1])).toEqual([{ name: 'one' }]);
  });

  it('see the table as it is now', async () => {
    await byId(1);
    await db.run('ALTER TABLE t ADD COLUMN note VARCHAR');
    await db.run('UPDATE t SET note = ? WHERE id = ?', ['first', 1]);
    expect(await byId(1)).toEqual([{ id: 1, name: 'one', note: 'first' }]);
  });

  it('run again after one of their runs failed', async () => {
    const insert = 'INSERT INTO t (id, name) VALUES (?, ?)';
    await db.run(insert, [3, 'three']);
    await expect(db.run(insert, [3, 'again'])).rejects.toThrow(/[Dd]uplicate key/);
    await db.run(insert, [4, 'four']);
    expect((await db.rows('SELECT id FROM t ORDER BY id')).map((row) => row.id)).toEqual([1, 2, 3, 4]);
  });

  it('answer right after more statements than are kept', async () => {
    for (let i = 0; i < 100; i++) expect(await db.rows(`SELECT ? + ${i} AS n`, [1])).toEqual([{ n: 1 + i }]);
    expect(await byId(2)).toEqual([{ id: 2, name: 'two', note: null }]);
    expect(await db.rows('SELECT ? + 0 AS n', [5])).toEqual([{ n: 5 }]);
  });
});
