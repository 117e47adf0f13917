import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { newDataDir, startHarness, type Harness } from './service-harness.ts';

// A data folder whose results file was written in the storage format older releases used (which
// cannot hold VARIANT columns) is copied into the new format at start, every stored result kept.

let h: Harness | null = null;
afterAll(() => h?.stop());

async function oldFormatResults(dataDir: string) {
  const instance = await DuckDBInstance.create(join(dataDir, 'results.duckdb'), { storage_compatibility_version: 'v1.0.0' });
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE kept AS SELECT range AS n, 'row ' || range AS label FROM range(50000)`);
  connection.closeSync();
  instance.closeSync();
}

async function readKept(dataDir: string): Promise<{ rows: number; sum: number }> {
  const instance = await DuckDBInstance.create(join(dataDir, 'results.duckdb'));
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll('SELECT count(*)::INTEGER AS rows, sum(n)::DOUBLE AS sum FROM kept');
  const [row] = reader.getRowObjectsJS() as { rows: number; sum: number }[];
  connection.closeSync();
  instance.closeSync();
  return row!;
}

describe('a results file of the former storage format', () => {
  it('is copied into the new one at start, keeping its tables, and then holds VARIANT results', async () => {
    const dataDir = newDataDir();
    await oldFormatResults(dataDir);
    const before = await readKept(dataDir);
    h = await startHarness({ dataDir });
    expect(existsSync(join(dataDir, 'results.duckdb.upgrading'))).toBe(false);
    const created = await h.post('/api/v1/query', { name: 'v', query_sql: 'SELECT 1::VARIANT AS v' });
    const id = await h.execute(created.body.query_id, {});
    expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
    await h.service.close();
    expect(await readKept(dataDir)).toEqual(before);
  });

  it('half copied by a killed process is copied again from the old file', async () => {
    const dataDir = newDataDir();
    await oldFormatResults(dataDir);
    const before = await readKept(dataDir);
    await rename(join(dataDir, 'results.duckdb'), join(dataDir, 'results.duckdb.upgrading'));
    await writeFile(join(dataDir, 'results.duckdb'), 'a half-written file');
    const again = await startHarness({ dataDir });
    await again.service.close();
    expect(existsSync(join(dataDir, 'results.duckdb.upgrading'))).toBe(false);
    expect(await readKept(dataDir)).toEqual(before);
  });
});
