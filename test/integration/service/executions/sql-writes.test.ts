import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox, tableAndTempFiles, tableFiles } from '../../../../bench/probes/sandbox-writes.ts';
import { ExecutionBudget } from '../../../../main/service/executions/execution-budget.ts';
import { DEFAULT_PLAN_LIMITS, DEFAULT_SERVICE_BUDGET } from '../../../../main/service/executions/plan-limits.ts';
import { Sandboxes } from '../../../../main/service/executions/sql-sandbox.ts';
import { SampleTables } from '../../../../main/service/samples/sample-tables.ts';
import { TableFiles } from '../../../../main/service/tables/table-files.ts';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { executeSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// No statement of user SQL writes or deletes a file, however it is wrapped: not another context's
// table file (which would break every execution that reads it), not the `.wal` files beside it,
// not the folder its DuckDB spills into.

let h: Harness;
let carolFiles: string[];

const readShared = (key: string): Promise<Json> => executeSql(h, key, 'select sum(n)::int as s from dune.carol.dataset_shared');

beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  const upload = await h.post(
    '/api/v1/table/upload/csv',
    { table_name: 'shared', data: 'n\n1\n2\n', is_private: false },
    withApiKey(KEYS.carol),
  );
  expect(upload.status).toBe(200);
  carolFiles = tableFiles(h.dataDir);
});
afterAll(() => h.stop());

describe('user SQL and files', () => {
  it('writes no file from a free key, however the write is wrapped, and every context still reads', async () => {
    expect(await readShared(KEYS.carol)).toEqual([{ s: 3 }]);
    const probe = await probeSandbox(h.service.baseUrl, h.dataDir, KEYS.bob);
    expect(probe.problems).toEqual([]);
    expect(probe.sent).toBeGreaterThan(150);
    // the table files are opened again from disk after a restart: they are whole
    await h.restart();
    expect(await readShared(KEYS.carol)).toEqual([{ s: 3 }]);
    expect(await readShared(KEYS.alice)).toEqual([{ s: 3 }]);
  }, 600_000);

  it("DuckDB itself cannot write a table file, the sample's, or a WAL by path, where user SQL runs", async () => {
    const files = new TableFiles(join(h.dataDir, 'tables'));
    const file = basename(carolFiles[0]!);
    const record = { namespace: 'carol', tableName: 'dataset_shared', file };
    const samples = new SampleTables(h.dataDir);
    const sandboxes = new Sandboxes({ readable: async () => [record] } as never, files, {
      catalog: 'dune',
      tempDir: join(h.dataDir, 'tmp', 'direct'),
      hiddenPaths: [],
      budget: new ExecutionBudget(DEFAULT_SERVICE_BUDGET),
      samples,
    });
    const sample = await samples.make();
    const before = tableAndTempFiles(h.dataDir);
    try {
      const sandbox = await sandboxes.open(sandboxes.reserve(null, DEFAULT_PLAN_LIMITS.free)!, 'select * from ethereum.blocks');
      try {
        // past the statement check, on the connection itself: the sample is attached read-only
        await expect(sandbox.connection.run(`DELETE FROM "dune sample".ethereum.blocks`)).rejects.toThrow(/read-only/);
        for (const target of [files.path(file), `${files.path(file)}.wal`, `${files.path(file)}.wal.recovery`, sample, `${sample}.wal`]) {
          // past the statement check: DuckDB's own refusal
          await expect(
            sandbox.connection.run(`COPY (SELECT 'x' AS a) TO '${target}' (FORMAT csv, USE_TMP_FILE false)`),
            target,
          ).rejects.toThrow(/disabled by configuration/);
        }
        const reader = await sandbox.connection.runAndReadAll('select sum(n)::int from dune.carol.dataset_shared');
        expect(reader.getRows()).toEqual([[3]]);
      } finally {
        sandbox.close();
      }
    } finally {
      await sandboxes.close();
    }
    expect(tableAndTempFiles(h.dataDir)).toEqual(before);
  });

  it('a table file that cannot be opened fails only the executions that read it, with a clear error', async () => {
    await h.post('/api/v1/table/upload/csv', { table_name: 'own', data: 'n\n5\n', is_private: false }, withApiKey(KEYS.alice));
    // carol's file damaged on disk, as a failing disk or another program might leave it
    for (const file of carolFiles) writeFileSync(file, 'x\n');
    await h.restart();
    for (const key of [KEYS.alice, KEYS.carol, KEYS.bob]) {
      const status = await executeSql(h, key, 'select * from dune.carol.dataset_shared');
      expect(status.state).toBe('QUERY_STATE_FAILED');
      expect(status.error.message).toMatch(
        /^Invalid Input Error: table dune\.carol\.dataset_shared cannot be read: its file could not be opened \(.*not a valid DuckDB database file.*\); its owner can upload it again$/,
      );
      expect(status.error.message).not.toContain(h.dataDir);
    }
    expect(await executeSql(h, KEYS.alice, 'select n::int as n from dune.alice.dataset_own')).toEqual([{ n: 5 }]);
    expect(await executeSql(h, KEYS.bob, 'select 1 as one')).toEqual([{ one: 1 }]);
  }, 120_000);
});
