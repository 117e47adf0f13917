import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUERY, startHarness, type Harness } from '../service-harness.ts';

// A process killed mid-work leaves a temporary upload file and the result file of an execution
// that never completed; the next start removes both and keeps every completed result.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

function resultFiles(): string[] {
  return readdirSync(join(h.dataDir, 'results')).sort();
}

describe('leftovers of a process that was killed', () => {
  it('are removed at the next start; completed results stay', async () => {
    const done = await h.execute(DEMO_QUERY, {});
    await h.waitUntilFinished(done);
    await h.service.close();

    mkdirSync(join(h.dataDir, 'tmp'), { recursive: true });
    writeFileSync(join(h.dataDir, 'tmp', 'upload-0123456789abcdef.csv'), 'a\n'.repeat(100_000));
    const instance = await DuckDBInstance.create(join(h.dataDir, 'results', '01INTERRUPTEDEXECUTION0000.duckdb'));
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE r AS SELECT range AS n FROM range(100000)`);
    connection.closeSync();
    instance.closeSync();
    expect(resultFiles()).toContain('01INTERRUPTEDEXECUTION0000.duckdb');

    await h.restart();
    expect(readdirSync(join(h.dataDir, 'tmp'))).toEqual([]);
    await h.service.close();
    const files = resultFiles();
    expect(files).not.toContain('01INTERRUPTEDEXECUTION0000.duckdb');
    expect(files).toContain(`${done}.duckdb`);
    await h.restart();
    const { status, body } = await h.get(`/api/v1/execution/${done}/results?limit=1`);
    expect(status).toBe(200);
    expect(body.result.rows).toHaveLength(1);
    expect(existsSync(join(h.dataDir, 'tmp'))).toBe(true);
  });
});
