import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// User SQL that tried to write files, or to read the service's host, when it was sent: the
// statements the fuzzer sends as they are, each of which must be refused (never a 5xx) and leave
// every file of the service as it was. The targets are the table files, the sample of Dune's
// tables, the files DuckDB keeps beside them, and the folders its sandboxes spill into.

const lit = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Statements that would write `target` if user SQL could write files, wrapped every way known. */
function writesTo(target: string): string[] {
  const to = lit(target);
  const copy = `COPY (SELECT 'x' AS a) TO ${to} (FORMAT csv, USE_TMP_FILE false)`;
  return [
    copy,
    `EXPLAIN ${copy}`,
    `EXPLAIN ANALYZE ${copy}`,
    `/* a comment */ explain -- and another\n analyse ${copy}`,
    `EXPLAIN/**/ANALYZE ${copy}`,
    `EXPLAIN ANALYZE /* nested /* comment */ */ ${copy}`,
    `EXPLAIN\u00a0ANALYZE ${copy}`,
    `EXPLAIN (FORMAT json) ${copy}`,
    `EXPLAIN (ANALYZE) ${copy}`,
    `EXPLAIN ANALYZE PREPARE w AS ${copy}`,
    `PREPARE w AS ${copy}`,
    `COPY (WITH x AS (SELECT 1 AS a) SELECT * FROM x) TO ${to} (FORMAT csv)`,
    `COPY (SELECT 1 AS a, 2 AS p) TO ${to} (FORMAT csv, PARTITION_BY (p), OVERWRITE_OR_IGNORE)`,
    `CREATE MACRO w() AS TABLE SELECT 1; ${copy}`,
    `SELECT 1; ${copy}`,
    `SELECT * FROM query(${lit(copy)})`,
    `EXPORT DATABASE ${to}`,
    `EXPLAIN ANALYZE EXPORT DATABASE ${to}`,
    `ATTACH ${to} AS w`,
    `EXPLAIN ANALYZE ATTACH ${to} AS w`,
    `SELECT * FROM read_duckdb(${to})`,
    `SELECT * FROM enable_profiling(save_location := ${lit(`${target}.json`)}, format := 'json')`,
    `SELECT * FROM enable_logging(storage := 'file', storage_path := ${to})`,
    `CALL enable_logging(storage := 'file', storage_path := ${to})`,
    `SET profiling_output = ${to}`,
    `SET log_query_path = ${to}`,
  ];
}

// Statements that change the files or settings of the DuckDB every execution of a context shares,
// or read what describes the host (folders, settings), however they are written.
const FIXED = [
  'SELECT * FROM checkpoint()',
  'SELECT * FROM force_checkpoint()',
  'CHECKPOINT',
  'DETACH "table file 0"',
  'SELECT * FROM pg_settings',
  'SELECT * FROM duckdb_databases',
  'SELECT * FROM pragma_database_list',
  'PRAGMA database_list',
  "EXPLAIN SELECT current_setting('temp_directory')",
  "EXPLAIN ANALYZE SELECT * FROM duckdb_settings() WHERE name = 'temp_directory' AND value LIKE '/%'",
  "SELECT json_serialize_plan('SELECT current_setting(''temp_directory'')', optimize := true)",
  "SELECT write_log('x')",
  'SET enable_external_access = true',
  'RESET enable_external_access',
  'SET lock_configuration = false',
  'SELECT * FROM truncate_duckdb_logs()',
  "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
  "SELECT * FROM sql_auto_complete('SELECT * FROM ''/')",
  // the sample of Dune's tables, read-only to every context
  'DELETE FROM ethereum.blocks',
  'UPDATE prices.usd SET price = 0',
  'INSERT INTO tokens.erc20 SELECT * FROM tokens.erc20',
  'DROP VIEW ethereum.transactions',
  'CREATE OR REPLACE VIEW dex.trades AS SELECT 1 AS x',
  'DELETE FROM "dune sample".ethereum.blocks',
  'DROP TABLE "dune sample".labels.addresses',
  'DETACH "dune sample"',
  'EXPLAIN ANALYZE DELETE FROM "dune sample".erc20_ethereum.evt_Transfer',
];

// The ways of writing that reach a spill folder as much as a table file: a few of each kind, for
// the many folders a sandbox might spill into.
const SPILL_WAYS = [/^COPY/, /^EXPLAIN ANALYZE COPY/, /^\/\*/, /^EXPORT/, /^ATTACH/, /enable_logging|enable_profiling/];

/** Every statement to send, for these table files and spill folders. */
export function sandboxWrites(tableFiles: string[], spillFolders: string[]): string[] {
  const nextToTables = tableFiles.flatMap((file) => [file, `${file}.wal`, `${file}.wal.recovery`]).flatMap(writesTo);
  const inSpillFolders = spillFolders.flatMap((folder) =>
    writesTo(join(folder, 'written.csv')).filter((sql) => SPILL_WAYS.some((way) => way.test(sql))),
  );
  return [...nextToTables, ...inSpillFolders, ...FIXED];
}

/** The folders the service's sandboxes spill into, `count` of them, made now so that a write into one would land. */
export function spillFolders(dataDir: string, count: number): string[] {
  const folders = Array.from({ length: count }, (_, i) => join(dataDir, 'tmp', `sql-${i + 1}`));
  for (const folder of folders) mkdirSync(folder, { recursive: true });
  return folders;
}

/** Every file under the data folder's tables and temporary folders, with its size and time, sorted. */
export function tableAndTempFiles(dataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(path);
        found.push(`${path} ${size} ${mtimeMs}`);
      }
    }
  };
  for (const dir of ['tables', 'tmp', 'samples']) if (existsSync(join(dataDir, dir))) walk(join(dataDir, dir));
  return found.sort();
}

/** The sample's file of the service on `dataDir`, once made. */
export function sampleFiles(dataDir: string): string[] {
  const dir = join(dataDir, 'samples');
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

/** The table files of the service on `dataDir`. */
export function tableFiles(dataDir: string): string[] {
  const dir = join(dataDir, 'tables');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.duckdb'))
    .map((name) => join(dir, name));
}

export interface SandboxProbe {
  /** Statements sent. */
  sent: number;
  /** Statements that got a 5xx or were not refused, and files that changed (with no statement). */
  problems: { sql: string | null; answer: string }[];
}

const AT_ONCE = 4;

/**
 * Sends every statement to `/sql/execute` as the owner of `key` (a few at a time), waits for each
 * to end, and then compares the table and temporary files with what was there before.
 */
export async function probeSandbox(baseUrl: string, dataDir: string, key: string): Promise<SandboxProbe> {
  const problems: SandboxProbe['problems'] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-dune-api-key': key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  // the sample made first, as any reading of it does: then its file is a target like the tables'
  const made = await call('POST', '/sql/execute', { sql: 'SELECT count(*) FROM tokens.erc20' });
  while (made.status === 200 && !(await call('GET', `/execution/${made.body.execution_id}/status`)).body.is_execution_finished) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const statements = sandboxWrites([...tableFiles(dataDir), ...sampleFiles(dataDir)], spillFolders(dataDir, 12));
  const before = tableAndTempFiles(dataDir);
  const send = async (sql: string) => {
    const run = await call('POST', '/sql/execute', { sql });
    if (run.status !== 200) {
      if (run.status >= 500) problems.push({ sql, answer: `${run.status} ${JSON.stringify(run.body)}` });
      return;
    }
    for (;;) {
      const status = await call('GET', `/execution/${run.body.execution_id}/status`);
      if (status.status >= 500) problems.push({ sql, answer: `status: ${status.status}` });
      if (status.status !== 200 || status.body.is_execution_finished) {
        if (status.body.state !== 'QUERY_STATE_FAILED') problems.push({ sql, answer: `ended ${status.body.state}, not refused` });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  for (let i = 0; i < statements.length; i += AT_ONCE) await Promise.all(statements.slice(i, i + AT_ONCE).map(send));
  const after = new Set(tableAndTempFiles(dataDir));
  const was = new Set(before);
  for (const file of before) if (!after.has(file)) problems.push({ sql: null, answer: `changed or deleted by user SQL: ${file}` });
  for (const file of after) if (!was.has(file)) problems.push({ sql: null, answer: `written by user SQL: ${file}` });
  return { sent: statements.length, problems };
}
