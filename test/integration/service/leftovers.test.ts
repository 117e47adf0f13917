import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUERY, startHarness, type Harness } from './service-harness.ts';

// A process killed mid-work leaves a temporary upload file and the result table of an execution
// that never completed; the next start removes both and keeps every completed result.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

async function resultTables(): Promise<string[]> {
  const instance = await DuckDBInstance.create(join(h.dataDir, 'results.duckdb'));
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll(`SELECT table_name FROM duckdb_tables() ORDER BY table_name`);
  const names = reader.getRowObjectsJS().map((row) => String(row.table_name));
  connection.closeSync();
  instance.closeSync();
  return names;
}

describe('leftovers of a process that was killed', () => {
  it('are removed at the next start; completed results stay', async () => {
    const done = await h.execute(DEMO_QUERY, {});
    await h.waitUntilFinished(done);
    await h.service.close();

    mkdirSync(join(h.dataDir, 'tmp'), { recursive: true });
    writeFileSync(join(h.dataDir, 'tmp', 'upload-0123456789abcdef.csv'), 'a\n'.repeat(100_000));
    const instance = await DuckDBInstance.create(join(h.dataDir, 'results.duckdb'));
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE "r_01INTERRUPTEDEXECUTION0000" AS SELECT range AS n FROM range(100000)`);
    connection.closeSync();
    instance.closeSync();
    expect(await resultTables()).toContain('r_01INTERRUPTEDEXECUTION0000');

    await h.restart();
    expect(readdirSync(join(h.dataDir, 'tmp'))).toEqual([]);
    await h.service.close();
    const tables = await resultTables();
    expect(tables).not.toContain('r_01INTERRUPTEDEXECUTION0000');
    expect(tables).toContain(`r_${done}`);
    await h.restart();
    const { status, body } = await h.get(`/api/v1/execution/${done}/results?limit=1`);
    expect(status).toBe(200);
    expect(body.result.rows).toHaveLength(1);
    expect(existsSync(join(h.dataDir, 'tmp'))).toBe(true);
  });
});
