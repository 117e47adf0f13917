import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { DUCKDB_ERROR_LOCATION, locateDuckdbError } from '../../common/duckdb-errors.ts';

// Local SQL only reads: one SELECT, judged by DuckDB's parser before anything of it is bound (a
// bound statement may already have acted), so that nothing a statement does can change a cached
// result or the sandbox it runs in.

/** Why a statement did not run, and where in its text when DuckDB said so (1-based). */
export interface LocalSqlError {
  message: string;
  line?: number;
  column?: number;
}

export class LocalSqlRefused extends Error {
  readonly error: LocalSqlError;
  constructor(error: LocalSqlError) {
    super(error.message);
    this.error = error;
  }
}

/** The statement, prepared, once it is shown to be a single SELECT; throws LocalSqlRefused otherwise. */
export async function prepareSelect(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  const count = await statementCount(connection, sql);
  if (count === 0) throw new LocalSqlRefused({ message: 'There is no SQL statement to run.' });
  if (count > 1) throw new LocalSqlRefused({ message: `The text holds ${count} statements; local SQL runs one SELECT at a time.` });
  const serialize = await connection.prepare('SELECT json_serialize_sql($1::VARCHAR)');
  serialize.bindVarchar(1, sql);
  const tree = JSON.parse(String((await serialize.runAndReadAll()).getRows()[0]![0])) as { error?: boolean; error_message?: string };
  if (tree.error && /only select/i.test(tree.error_message ?? '')) throw refusal(sql);
  const { StatementType } = await import('@duckdb/node-api');
  const statement = await located(sql, () => connection.prepare(sql));
  if (statement.statementType !== StatementType.SELECT) throw refusal(sql);
  return statement;
}

/** Runs `work`; a DuckDB error it throws becomes LocalSqlRefused, located in `sql` (which starts `skipLines` lines into the text DuckDB ran). */
export async function located<T>(sql: string, work: () => Promise<T>, skipLines = 0): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    throw new LocalSqlRefused(duckdbError(error.message, sql, skipLines));
  }
}

function duckdbError(message: string, sql: string, skipLines: number): LocalSqlError {
  const text = message.replace(DUCKDB_ERROR_LOCATION, '').trim();
  const at = locateDuckdbError(message, '\n'.repeat(skipLines) + sql);
  if (at === null || at.line <= skipLines) return { message: text };
  const line = at.line - skipLines;
  return { message: `line ${line}:${at.column}: ${text}`, line, column: at.column };
}

async function statementCount(connection: DuckDBConnection, sql: string): Promise<number> {
  try {
    return (await connection.extractStatements(sql)).count;
  } catch (error) {
    // DuckDB gives no message of its own for text without any statement
    if (error instanceof Error && error.message === 'Error in native callback') return 0;
    if (error instanceof Error) throw new LocalSqlRefused(duckdbError(error.message, sql, 0));
    throw error;
  }
}

/** The refusal of a statement that is not a SELECT, at its first word. */
function refusal(sql: string): LocalSqlRefused {
  const lines = sql.split('\n');
  const line = lines.findIndex((text) => /\S/.test(text.replace(/--.*$/, '')));
  const text = lines[line] ?? '';
  const column = text.search(/\S/) + 1;
  const word = /^[A-Za-z]+/.exec(text.slice(column - 1))?.[0].toUpperCase() ?? 'This';
  return new LocalSqlRefused({
    message: `line ${line + 1}:${column}: local SQL only reads: ${word} is refused, as cached results never change. Write one SELECT (or WITH … SELECT).`,
    line: line + 1,
    column,
  });
}
