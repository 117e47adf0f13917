import type { DuckDBConnection } from '@duckdb/node-api';
import { calls, refusedCall } from '../../common/called-functions.ts';
import { DUCKDB_ERROR_LOCATION, locateDuckdbError } from '../../common/duckdb-errors.ts';
import { duckdbModule } from '../duckdb-module.ts';

// Local SQL only reads: one SELECT, judged by DuckDB's parser before anything of it is bound (a
// bound statement may already have acted), then bound in the sandbox (see sandbox.ts), where its
// plan may call no function that reaches past the data.

/** Why a statement did not run, and where in its text when DuckDB said so (1-based). */
export interface LocalSqlError {
  message: string;
  /** The user cancelled it. */
  cancelled?: boolean;
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

/** Throws LocalSqlRefused unless `sql` is a single SELECT that binds in the sandbox of `connection`. */
export async function checkSelect(connection: DuckDBConnection, sql: string): Promise<void> {
  const count = await statementCount(connection, sql);
  if (count === 0) throw new LocalSqlRefused({ message: 'There is no SQL statement to run.' });
  if (count > 1) throw new LocalSqlRefused({ message: `The text holds ${count} statements; local SQL runs one SELECT at a time.` });
  const parsed = await serialized(connection, 'json_serialize_sql', sql);
  if (parsed.error && /only select/i.test(parsed.error_message ?? '')) throw refusal(sql);
  const statement = await located(sql, () => connection.prepare(sql));
  if (statement.statementType !== duckdbModule().StatementType.SELECT) throw refusal(sql);
  for (const [kind, tree] of [
    ['parsed', parsed],
    ['bound', await serialized(connection, 'json_serialize_plan', sql)],
  ] as const) {
    const refused = refusedCall(tree, kind) ?? catalogCall(tree, kind);
    if (refused !== null) throw new LocalSqlRefused({ message: `Local SQL reads cached results and attached files only: ${refused}.` });
  }
}

// The statement runs in the cache's DuckDB (see local-results.ts), whose catalog holds every
// account's results and the cache's own tables: a statement reads the tables it names, not that.
function catalogCall(tree: unknown, kind: 'parsed' | 'bound'): string | null {
  const call = calls(tree, kind).find((c) => c.table && /^(duckdb_|pragma_)/.test(c.name));
  return call ? `${call.name}() is not available: it describes the cache, not a result` : null;
}

async function serialized(connection: DuckDBConnection, fn: string, sql: string): Promise<{ error?: boolean; error_message?: string }> {
  const serialize = await connection.prepare(`SELECT ${fn}($1::VARCHAR)`);
  serialize.bindVarchar(1, sql);
  return JSON.parse(String((await serialize.runAndReadAll()).getRows()[0]![0])) as { error?: boolean; error_message?: string };
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
  const line = Math.max(
    0,
    lines.findIndex((text) => /\S/.test(text.replace(/--.*$/, ''))),
  );
  const text = lines[line] ?? '';
  const column = Math.max(1, text.search(/\S/) + 1);
  const word = /^[A-Za-z]+/.exec(text.slice(column - 1))?.[0].toUpperCase() ?? 'This';
  return new LocalSqlRefused({
    message: `line ${line + 1}:${column}: local SQL only reads: ${word} is refused, as cached results never change. Write one SELECT (or WITH … SELECT).`,
    line: line + 1,
    column,
  });
}
