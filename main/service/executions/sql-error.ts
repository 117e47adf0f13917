import { DUCKDB_ERROR_LOCATION, locateDuckdbError } from '../../common/duckdb-errors.ts';
import type { Rewritten } from '../dunesql/rewrite.ts';
import { unknownTableMessage } from '../samples/unknown-table.ts';
import type { ExecutionError } from './execution-store.ts';

export const EXECUTION_FAILED = 'FAILED_TYPE_EXECUTION_FAILED';

/**
 * An execution error from DuckDB's message: its first part as the message, its location as line
 * and column. DuckDB locates it in the SQL it ran (`ran`, the user's `sql` rewritten), and the
 * location given is the user's. An unknown table is said as the hosted service says it.
 */
export function sqlError(message: string, sql: string, ran?: Rewritten): ExecutionError {
  const location = locateDuckdbError(message, ran?.sql ?? sql);
  const text = message.replace(DUCKDB_ERROR_LOCATION, '').trim();
  if (!location) return { type: EXECUTION_FAILED, message: text };
  const at = ran ? lineAndColumn(sql, ran.originalOffset(offsetOf(ran.sql, location))) : location;
  return errorAt(unknownTableMessage(text, sql, at.line, at.column) ?? text, at);
}

/** An execution error at `offset` of `sql`. */
export function sqlErrorAt(message: string, sql: string, offset: number): ExecutionError {
  return errorAt(message, lineAndColumn(sql, offset));
}

function errorAt(message: string, { line, column }: { line: number; column: number }): ExecutionError {
  return { type: EXECUTION_FAILED, message: `line ${line}:${column}: ${message}`, line, column };
}

function offsetOf(sql: string, { line, column }: { line: number; column: number }): number {
  const lines = sql.split('\n');
  return lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
}

function lineAndColumn(sql: string, offset: number): { line: number; column: number } {
  const before = sql.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
