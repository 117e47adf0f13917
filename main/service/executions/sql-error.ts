import type { ExecutionError } from './execution-store.ts';

export const EXECUTION_FAILED = 'FAILED_TYPE_EXECUTION_FAILED';

// DuckDB ends a located error with the offending line and a caret under the position:
//   LINE 2:   x from foo
//                  ^
// A long line is cut and marked with "..." at either end, so the snippet is found again in the
// SQL to turn the caret into a column of the whole line.
const LOCATION = /\n\s*(LINE (\d+): )(.*)\n( *)\^\s*$/;

function locate(message: string, sql: string): { line: number; column: number } | null {
  const match = LOCATION.exec(message);
  if (!match) return null;
  const [, prefix = '', lineText = '', snippet = '', pad = ''] = match;
  const line = Number(lineText);
  const caret = pad.length - prefix.length;
  const cutAtStart = snippet.startsWith('...');
  const shown = snippet.slice(cutAtStart ? 3 : 0).replace(/\.\.\.$/, '');
  const source = sql.split('\n')[line - 1];
  if (source === undefined || caret < 0) return null;
  const start = cutAtStart ? source.indexOf(shown) : 0;
  if (start < 0) return null;
  return { line, column: start + caret - (cutAtStart ? 3 : 0) + 1 };
}

/** An execution error from DuckDB's message: its first part as the message, its location as line and column. */
export function sqlError(message: string, sql: string): ExecutionError {
  const location = locate(message, sql);
  const text = message.replace(LOCATION, '').trim();
  if (!location) return { type: EXECUTION_FAILED, message: text };
  return {
    type: EXECUTION_FAILED,
    message: `line ${location.line}:${location.column}: ${text}`,
    line: location.line,
    column: location.column,
  };
}
