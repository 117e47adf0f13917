import { mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionBudget } from '../../../../main/service/executions/execution-budget.ts';
import { DEFAULT_PLAN_LIMITS, DEFAULT_SERVICE_BUDGET } from '../../../../main/service/executions/plan-limits.ts';
import { Sandboxes } from '../../../../main/service/executions/sql-sandbox.ts';
import { SampleTables } from '../../../../main/service/samples/sample-tables.ts';
import { runSql } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

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

const HOST = (name: string) => `${name}() is not available: it describes the service's host, not data`;
const NOT_DATA = (name: string) => `${name}() is not available: a query reads tables, never files or SQL text, and changes nothing`;

/** Expects the SQL to be refused with exactly this message. */
async function refused(text: string, message: string) {
  const status = await sql(text);
  expect(status.state, text).toBe('QUERY_STATE_FAILED');
  expect(status.error.message, text).toBe(message);
}

describe('host paths and user SQL', () => {
  it('refuses the functions that describe the host, however they are written', async () => {
    const refusals = [
      ['select path from duckdb_databases()', 'duckdb_databases'],
      ['select name, value from duckdb_settings()', 'duckdb_settings'],
      ['select * from system.main."DuckDB_Settings"()', 'duckdb_settings'],
      ["select current_setting('temp_directory')", 'current_setting'],
      ['select 1 where exists (select * from duckdb_temporary_files())', 'duckdb_temporary_files'],
      ['with t as (select * from duckdb_extensions()) select count(*) from t', 'duckdb_extensions'],
      ["select list_transform([1], x -> current_setting('secret_directory'))", 'current_setting'],
      ['describe select * from duckdb_settings()', 'duckdb_settings'],
    ];
    for (const [text, name] of refusals) await refused(text!, HOST(name!));
  });

  it('refuses what reaches the host through a view, a macro or a table name, by what DuckDB binds', async () => {
    const refusals = [
      ["select name, setting from pg_settings where name like '%directory%'", 'duckdb_settings'],
      ['select path from duckdb_databases', 'duckdb_databases'],
      ['select * from pragma_database_list', 'duckdb_databases'],
      ['show databases', 'duckdb_databases'],
      ['select count(*) from (select * from pg_catalog.pg_settings)', 'duckdb_settings'],
      ["select * from query_table('pg_settings')", 'duckdb_settings'],
    ];
    for (const [text, name] of refusals) await refused(text!, HOST(name!));
    await refused('pragma database_list', 'only queries that read data (SELECT) can run; this statement would change data or settings');
    await refused("select * from query('select path from duckdb_databases()')", NOT_DATA('query'));
    // the plan of SQL text, with the settings folded into it
    await refused(
      "select json_serialize_plan('select current_setting(''temp_directory'')', optimize := true)",
      NOT_DATA('json_serialize_plan'),
    );
  });

  it('EXPLAIN and EXPLAIN ANALYZE run only for a statement that passes the same checks', async () => {
    await refused("explain select current_setting('temp_directory')", HOST('current_setting'));
    // row counts would let a setting be guessed one character at a time
    await refused(
      "explain analyze select 1 from duckdb_settings() where name = 'temp_directory' and value like '/%'",
      HOST('duckdb_settings'),
    );
    await refused('/* a */ EXPLAIN -- b\n ANALYSE select * from pg_settings', HOST('duckdb_settings'));
    await refused('explain (format json) select 1', 'EXPLAIN takes no options here: write EXPLAIN or EXPLAIN ANALYZE before a SELECT');
    const plan: Json[] = await sql('/* why */ explain analyze\nselect sum(a) as s from dune.demo.dataset_mine');
    expect(plan.map((row) => row.explain_key)).toEqual(['analyzed_plan']);
    expect(plan[0].explain_value).toContain('Query Profiling Information');
    expectNoHostPath(plan, 'the plan');
  });

  it('no table function without arguments answers or fails with a host path', async () => {
    const names: Json[] = await sql(
      "select distinct function_name from duckdb_functions() where function_type = 'table' and len(parameters) = 0 order by 1",
    );
    expect(names.length).toBeGreaterThan(20);
    for (const { function_name: name } of names) expectNoHostPath(await sql(`select * from ${name}()`), `${name}()`);
  });

  it('the view a table is read through names no file', async () => {
    expectNoHostPath(await sql('select sql from duckdb_views() where not internal'), 'duckdb_views()');
  });

  it('an NDJSON insert that DuckDB cannot read names no host path', async () => {
    const created = await h.post('/api/v1/table/create', {
      namespace: 'demo',
      table_name: 'events',
      schema: [{ name: 'n', type: 'integer' }],
    });
    expect(created.status).toBe(200);
    const insert = await h.post('/api/v1/table/demo/events/insert', undefined, {
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"n": 1}\n{"n": ',
    });
    expect(insert.status).toBe(400);
    expect(insert.body.error).toBe('could not read the NDJSON: line 2 is not valid JSON');
    expectNoHostPath(insert.body, 'the error');
  });

  it('reading and settings stay as they were for plain queries', async () => {
    expect(await sql('select sum(a) as s from dune.demo.dataset_mine')).toEqual([{ s: 1 }]);
    expect(await sql("select 'current_setting' as word, 'query' as other")).toEqual([{ word: 'current_setting', other: 'query' }]);
    expect(await sql('select count(*)::int as n from range(3) where exists (select * from duckdb_tables())')).toEqual([{ n: 3 }]);
  });
});

describe('hiding host folders', () => {
  it('hides a folder by the path given and by the path the file system resolves it to, each once', () => {
    const real = mkdtempSync(join(tmpdir(), 'querydesk-real-'));
    const linked = `${real}-link`;
    symlinkSync(real, linked);
    try {
      const sandboxes = new Sandboxes({} as never, {} as never, {
        catalog: 'dune',
        tempDir: real,
        hiddenPaths: [linked, '/'],
        budget: new ExecutionBudget(DEFAULT_SERVICE_BUDGET),
        samples: {} as never,
      });
      expect(sandboxes.hidePaths(`"${linked}/tmp/a" and '${realpathSync(real)}/tmp/b', /`)).toBe(
        `"<hidden>/tmp/a" and '<hidden>/tmp/b', /`,
      );
    } finally {
      unlinkSync(linked);
      rmSync(real, { recursive: true });
    }
  });
});

describe('where user SQL spills', () => {
  it('each DuckDB of user SQL spills into a folder of its own under the data folder', async () => {
    const sandboxes = new Sandboxes({ readable: async () => [] } as never, { acquire: () => true, release: () => undefined } as never, {
      catalog: 'dune',
      tempDir: `${h.dataDir}/tmp`,
      hiddenPaths: [],
      budget: new ExecutionBudget(DEFAULT_SERVICE_BUDGET),
      samples: new SampleTables(h.dataDir),
    });
    try {
      const folders = [];
      for (const owner of [1, 2]) {
        const sandbox = await sandboxes.open(sandboxes.reserve(owner, DEFAULT_PLAN_LIMITS.free)!, 'select 1');
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
