import { homedir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandboxes } from '../../../main/service/executions/sql-sandbox.ts';
import { ExecutionBudget } from '../../../main/service/executions/execution-budget.ts';
import { DEFAULT_PLAN_LIMITS, DEFAULT_SERVICE_BUDGET } from '../../../main/service/executions/plan-limits.ts';
import { runSql } from './run-sql.ts';
import { startHarness, type Harness, type Json } from './service-harness.ts';

// User SQL sees data, never where the service keeps it: no answer and no error names the data
// folder, the home folder or the working folder.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const { status } = await h.post('/api/v1/table/upload/csv', { table_name: 'mine', data: 'a\n1\n', is_private: false });
  expect(status).toBe(200);
});
afterAll(() => h.stop());

const sql = (text: string): Promise<Json> => runSql(h, h.key, text);
const hostFolders = () => [h.dataDir, process.cwd(), homedir()];

function expectNoHostPath(answer: Json, what: string) {
  const text = JSON.stringify(answer);
  for (const folder of hostFolders()) expect(text, `${what} names ${folder}`).not.toContain(folder);
}

describe('host paths and user SQL', () => {
  it('refuses the functions that describe the host, however they are written', async () => {
    const refusals = [
      ['select path from duckdb_databases()', 'duckdb_databases'],
      ['select name, value from duckdb_settings()', 'duckdb_settings'],
      ['select * from system.main."DuckDB_Settings"()', 'duckdb_settings'],
      ["select current_setting('temp_directory')", 'current_setting'],
      ['select 1 where exists (select * from duckdb_temporary_files())', 'duckdb_temporary_files'],
      ["select * from query('select path from duckdb_databases()')", 'query'],
      ['with t as (select * from duckdb_extensions()) select count(*) from t', 'duckdb_extensions'],
    ];
    for (const [text, name] of refusals) {
      const status = await sql(text!);
      expect(status.state, text).toBe('QUERY_STATE_FAILED');
      expect(status.error.message, text).toBe(`${name}() is not available: it describes the service's host, not data`);
    }
  });

  it('no table function without arguments answers or fails with a host path', async () => {
    const names: Json[] = await sql(
      "select distinct function_name from duckdb_functions() where function_type = 'table' and len(parameters) = 0 order by 1",
    );
    expect(names.length).toBeGreaterThan(20);
    for (const { function_name: name } of names) expectNoHostPath(await sql(`select * from ${name}()`), `${name}()`);
  });

  it('an error that would quote a path shows it hidden, EXPLAIN included', async () => {
    const status = await sql('explain analyze select cast(path as int) from duckdb_databases() where path is not null');
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.error.message).toContain('<hidden>');
    expectNoHostPath(status, 'the error');
    // the view a table is read through names no file either
    expectNoHostPath(await sql('select sql from duckdb_views() where not internal'), 'duckdb_views()');
  });

  it('reading and settings stay as they were for plain queries', async () => {
    expect(await sql('select sum(a) as s from dune.demo.dataset_mine')).toEqual([{ s: 1 }]);
    expect(await sql("select 'current_setting' as word, 'query' as other")).toEqual([{ word: 'current_setting', other: 'query' }]);
  });
});

describe('where user SQL spills', () => {
  it('each DuckDB of user SQL spills into a folder of its own under the data folder', async () => {
    const sandboxes = new Sandboxes(
      { readable: async () => [] } as never,
      { acquire: () => true, release: () => undefined } as never,
      { catalog: 'dune', tempDir: `${h.dataDir}/tmp`, hiddenPaths: [], budget: new ExecutionBudget(DEFAULT_SERVICE_BUDGET) },
    );
    try {
      const folders = [];
      for (const owner of [1, 2]) {
        const sandbox = await sandboxes.open(sandboxes.reserve(owner, DEFAULT_PLAN_LIMITS.free)!);
        const reader = await sandbox.connection.runAndReadAll("select current_setting('temp_directory')");
        folders.push(String(reader.getRows()[0]![0]));
        sandbox.close();
      }
      for (const folder of folders) expect(folder.startsWith(`${h.dataDir}/tmp/sql-`), folder).toBe(true);
      expect(new Set(folders).size).toBe(2);
    } finally {
      await sandboxes.close();
    }
  });
});
