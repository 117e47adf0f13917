import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../service-harness.ts';

// Releases before kept every stored result as a table `r_<id>` of one file, `results.duckdb`, in a
// storage format that cannot hold VARIANT columns. At start each is moved into a file of its own.

let h: Harness;
afterAll(() => h?.stop());

/** Runs the SQL as a new query and answers the execution's id. */
async function stored(sql: string): Promise<string> {
  const created = await h.post('/api/v1/query', { name: 'stored', query_sql: sql });
  const id = await h.execute(created.body.query_id, {});
  expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
  return id;
}

/** Puts the data folder back as an earlier release left it: every result a table of results.duckdb. */
async function asOneFile(dataDir: string, ids: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(join(dataDir, 'results.duckdb'), { storage_compatibility_version: 'v1.0.0' });
  const connection = await instance.connect();
  for (const id of ids) {
    await connection.run(`ATTACH '${join(dataDir, 'results', `${id}.duckdb`)}' AS f (READ_ONLY)`);
    await connection.run(`CREATE TABLE "r_${id}" AS SELECT * FROM f.main.r ORDER BY rowid`);
    await connection.run('DETACH f');
  }
  connection.closeSync();
  instance.closeSync();
  await rm(join(dataDir, 'results'), { recursive: true });
}

async function pages(ids: string[]): Promise<unknown[]> {
  return Promise.all(ids.map(async (id) => (await h.get(`/api/v1/execution/${id}/results?limit=50000`)).body.result.rows));
}

describe('results kept in one file by an earlier release', () => {
  it('are moved into a file each at start, rows in their order; a move cut short starts again', async () => {
    h = await startHarness();
    // stored in an order no sort gives back: the move must keep it
    const ids = [
      await stored(`SELECT (range * 7919) % 50000 AS n, 'row ' || range AS label FROM range(50000)`),
      await stored(`SELECT 'only' AS label`),
    ];
    const before = await pages(ids);
    await h.service.close();
    await asOneFile(h.dataDir, ids);

    // killed after the first file was written in part: that file is written again
    await mkdir(join(h.dataDir, 'results'));
    await writeFile(join(h.dataDir, 'results', `${ids[0]}.duckdb`), 'a half-written file');
    await h.restart();
    expect(existsSync(join(h.dataDir, 'results.duckdb'))).toBe(false);
    expect(await pages(ids)).toEqual(before);

    // and the new files take VARIANT columns, which the old format could not
    const variant = await stored('SELECT 1::VARIANT AS v');
    expect((await h.get(`/api/v1/execution/${variant}/results`)).body.result.rows).toEqual([{ v: 1 }]);
  });
});
