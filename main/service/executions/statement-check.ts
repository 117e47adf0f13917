import { StatementType, type DuckDBConnection, type DuckDBPreparedStatement } from '@duckdb/node-api';

/** A query the service will not run, with the reason in words (never a DuckDB error). */
export class StatementRefused extends Error {}

// Statement kinds a stored query may be: reading only. Anything else would let a query change
// the uploaded tables or the session every other query runs in.
const READING_STATEMENTS = new Set<number>([StatementType.SELECT, StatementType.EXPLAIN]);

// Functions whose answers describe the service's host rather than data: the files behind the
// attached tables, the settings (temporary and allowed directories, the home folder's secrets and
// extensions), spill files. `query()` runs SQL text this check never sees, so it is refused too.
const HOST_FUNCTIONS = new Set([
  'current_setting',
  'duckdb_databases',
  'duckdb_extensions',
  'duckdb_external_file_cache',
  'duckdb_log_contexts',
  'duckdb_logs',
  'duckdb_secrets',
  'duckdb_settings',
  'duckdb_temporary_files',
  'query',
  'which_secret',
]);

/**
 * The one statement of `sql`, prepared, once DuckDB's own parser has shown that it only reads
 * and calls no function that describes the host. Throws `StatementRefused` otherwise.
 */
export async function prepareReadOnly(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let count: number;
  let extracted;
  try {
    extracted = await connection.extractStatements(sql);
    count = extracted.count;
  } catch (error) {
    // DuckDB gives no message of its own for text without any statement
    if (error instanceof Error && error.message === 'Error in native callback') count = 0;
    else throw error;
  }
  if (count === 0 || !extracted) throw new StatementRefused('the query has no SQL statement to run');
  if (count > 1) throw new StatementRefused(`the query holds ${count} statements; a query runs exactly one`);
  const statement = await extracted.prepare(0);
  if (!READING_STATEMENTS.has(statement.statementType)) {
    throw new StatementRefused('only queries that read data (SELECT) can run; this statement would change data or settings');
  }
  // An EXPLAIN answers a plan, never the rows its functions return; its errors are cleaned of
  // paths like every other (see Sandboxes.hidePaths).
  if (statement.statementType === StatementType.SELECT) await refuseHostFunctions(connection, sql);
  return statement;
}

async function refuseHostFunctions(connection: DuckDBConnection, sql: string): Promise<void> {
  const parse = await connection.prepare('SELECT json_serialize_sql($1::VARCHAR)');
  parse.bindVarchar(1, sql);
  const reader = await parse.runAndReadAll();
  const tree = JSON.parse(String(reader.getRows()[0]![0])) as { error?: boolean };
  // every SELECT serializes; one that did not could not be checked
  if (tree.error) throw new StatementRefused('the query could not be checked before running; write it as a plain SELECT');
  const called = calledFunctions(tree);
  const refused = [...called].find((name) => HOST_FUNCTIONS.has(name));
  if (refused !== undefined) {
    throw new StatementRefused(`${refused}() is not available: it describes the service's host, not data`);
  }
}

/** Every function name in a parsed statement, scalar and table functions alike, in lower case. */
function calledFunctions(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) calledFunctions(item, into);
  } else if (node !== null && typeof node === 'object') {
    const { function_name: name } = node as { function_name?: unknown };
    if (typeof name === 'string') into.add(name.toLowerCase());
    for (const value of Object.values(node)) calledFunctions(value, into);
  }
  return into;
}
