// What DuckDB's errors mean, for the code that acts on them: the one place that reads them.
//
// By message, since nothing else is given: @duckdb/node-api throws a plain Error with no code and no
// error type (DuckDB's C API has duckdb_result_error_type, but its Node bindings do not expose it).
// DuckDB starts every message with its exception type's name ("Conversion Error: ..."), so the
// type is read from there; the few cases below that need more than the type match its words.
// Pure string logic: both the service and the app's cache use it.

/** DuckDB's exception type ("Conversion", "Catalog", "Out of Memory") and the words after it. */
export interface DuckdbError {
  type: string;
  text: string;
}

const TYPED = /^([A-Za-z][A-Za-z ]*?) Error: /;

/** The type and words of a DuckDB error message; null for a message that names no type. */
export function readDuckdbError(message: string): DuckdbError | null {
  const typed = TYPED.exec(message);
  return typed ? { type: typed[1]!, text: message.slice(typed[0].length) } : null;
}

// The types DuckDB raises for a value its column's type cannot hold (`id = 'abc'`), or an operator
// that type has no meaning for (`list > 1`): a request's mistake, never the server's.
const VALUE_ERROR_TYPES: ReadonlySet<string> = new Set(['Conversion', 'Invalid Input', 'Binder', 'Not implemented']);

export function isValueError(message: string): boolean {
  const error = readDuckdbError(message);
  return error !== null && VALUE_ERROR_TYPES.has(error.type);
}

// A table DuckDB cannot find: its name (or schema and name) in quotes or not, whatever follows
// (the schema it lacks, a guess at another table).
const MISSING_TABLE = /^Table with name (?:"([^"]+)"|(\S+)) does not exist/;

/** The name of the table a Catalog Error says does not exist, as DuckDB gives it; null for any other error. */
export function missingTable(message: string): string | null {
  const error = readDuckdbError(message);
  const found = error?.type === 'Catalog' ? MISSING_TABLE.exec(error.text) : null;
  return found ? (found[1] ?? found[2]!) : null;
}

/** The first line of DuckDB's words for running out of its memory (or spill) limit; null for any other error. */
export function outOfMemory(message: string): string | null {
  const error = readDuckdbError(message);
  return error?.type === 'Out of Memory' ? /^.*/.exec(error.text)![0] : null;
}

// A database DuckDB gave up on whole after a write it could not make (an attached file given up on
// says "The database has been invalidated" alone, and its DETACH is the cure). Its type varies.
const INVALIDATED = /database has been invalidated because of a previous fatal error/;

export function isInvalidatedDatabase(message: string): boolean {
  return INVALIDATED.test(message);
}

// A CHECKPOINT refused while another connection's write transaction is open.
const CHECKPOINT_BLOCKED = /Cannot CHECKPOINT: there are other write transactions active/;

export function isCheckpointBlocked(message: string): boolean {
  return CHECKPOINT_BLOCKED.test(message);
}

// DuckDB ends a located error with the offending line and a caret under the position:
//   LINE 2:   x from foo
//                  ^
// A long line is cut and marked with "..." at either end, so the snippet is found again in the
// SQL to turn the caret into a column of the whole line.
export const DUCKDB_ERROR_LOCATION = /\n\s*(LINE (\d+): )(.*)\n( *)\^\s*$/;

/** Where a DuckDB error says it is in `sql` (1-based line and column), or null when it names no place. */
export function locateDuckdbError(message: string, sql: string): { line: number; column: number } | null {
  const match = DUCKDB_ERROR_LOCATION.exec(message);
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

// Where DuckDB's words on what went wrong and where end, in a message longer than a line: its
// advice on options of its own (a reader of an upload's error sets none), the dialects it tried,
// the statement it ran, or a blank line before such things.
const PAST_THE_GIST = /^(Possible (fixes|solutions):|The search space used was:|LINE \d+:|\s*$)/;
// A line of the gist quotes the data ("Original Line: ..."), which may be a whole file's worth
const LONGEST_GIST_LINE = 200;

/**
 * What a DuckDB error says went wrong and where, on one line: its first lines up to its advice and
 * internals, joined by "; ", each cut (and marked "…") past 200 characters.
 */
export function duckdbErrorGist(message: string): string {
  const lines = message.split('\n');
  const end = lines.findIndex((line, i) => i > 0 && PAST_THE_GIST.test(line));
  return lines
    .slice(0, end < 0 ? lines.length : end)
    .map((line) => (line.length > LONGEST_GIST_LINE ? `${line.slice(0, LONGEST_GIST_LINE)}…` : line).trim())
    .join('; ');
}
