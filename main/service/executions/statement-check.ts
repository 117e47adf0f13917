import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { refusedCall, type Tree } from '../../common/called-functions.ts';
import { quoteIdentifier as q } from '../../common/sql-quote.ts';
import { duckdb } from '../storage/duckdb-module.ts';
import { splitExplain } from './explain-prefix.ts';
import { StatementRefused } from './statement-refused.ts';

const NOT_READING = 'only queries that read data (SELECT) can run; this statement would change data or settings';

/**
 * The one statement of `sql`, prepared to stream its rows, once DuckDB has shown that it only
 * reads data: parsed, it is a SELECT (or EXPLAIN [ANALYZE] of one) calling no function that is not
 * available; bound, what it reads (views, macros and query_table() resolved) is still only that.
 * Nothing of the statement is bound before its parsed form passed: binding some statements
 * (EXPORT DATABASE) already writes. An EXPLAIN runs here, and its plan is answered with host
 * paths hidden. Throws `StatementRefused` otherwise.
 */
export async function prepareReadOnly(
  connection: DuckDBConnection,
  sql: string,
  hidePaths: (text: string) => string,
): Promise<DuckDBPreparedStatement> {
  await expectOneStatement(connection, sql);
  const explain = splitExplain(sql);
  const query = explain?.explained ?? sql;
  await checkCalls(connection, 'parsed', query);
  const statement = await connection.prepare(query);
  if (statement.statementType !== duckdb.StatementType.SELECT) throw new StatementRefused(NOT_READING);
  await checkCalls(connection, 'bound', query);
  return explain ? planOf(connection, explain.run, hidePaths) : statement;
}

async function expectOneStatement(connection: DuckDBConnection, sql: string): Promise<void> {
  let count: number;
  try {
    count = (await connection.extractStatements(sql)).count;
  } catch (error) {
    // DuckDB gives no message of its own for text without any statement
    if (error instanceof Error && error.message === 'Error in native callback') count = 0;
    else throw error;
  }
  if (count === 0) throw new StatementRefused('the query has no SQL statement to run');
  if (count > 1) throw new StatementRefused(`the query holds ${count} statements; a query runs exactly one`);
}

const SERIALIZE: Record<Tree, string> = {
  parsed: 'SELECT json_serialize_sql($1::VARCHAR)',
  bound: 'SELECT json_serialize_plan($1::VARCHAR)',
};

async function checkCalls(connection: DuckDBConnection, kind: Tree, query: string): Promise<void> {
  const serialize = await connection.prepare(SERIALIZE[kind]);
  serialize.bindVarchar(1, query);
  const reader = await serialize.runAndReadAll();
  const tree = JSON.parse(String(reader.getRows()[0]![0])) as { error?: boolean; error_message?: string };
  if (tree.error) {
    // only a SELECT serializes; one that does not could not be checked
    if (kind === 'parsed' && /only select/i.test(tree.error_message ?? '')) throw new StatementRefused(NOT_READING);
    throw new StatementRefused(`the query could not be checked before running (${tree.error_message}); write it as a plain SELECT`);
  }
  const refused = refusedCall(tree, kind);
  if (refused !== null) throw new StatementRefused(refused);
}

/** Runs the EXPLAIN and answers its rows, host paths hidden, as a statement of their own. */
async function planOf(connection: DuckDBConnection, run: string, hidePaths: (text: string) => string): Promise<DuckDBPreparedStatement> {
  const plan = await connection.runAndReadAll(run);
  const names = plan.columnNames();
  const rows = plan.getRows();
  const tuples = rows.map((_, r) => `(${names.map((_, c) => `$${r * names.length + c + 1}::VARCHAR`).join(', ')})`);
  const answer = await connection.prepare(`SELECT * FROM (VALUES ${tuples.join(', ')}) AS plan(${names.map(q).join(', ')})`);
  rows.flat().forEach((value, i) => answer.bindVarchar(i + 1, hidePaths(String(value))));
  return answer;
}
