import { quoteLiteral } from '../../common/sql-quote.ts';

// How an inserted file is read into DuckDB: every value as the text it is, so that nothing is
// guessed from a sample of the rows and nothing is changed on the way in; each value is then read
// into its column's type exactly (text-to-column.ts).

/** What an uploaded or inserted file holds. */
export type SourceFormat = 'csv' | 'ndjson';

// as long as read_json's largest object by default; DuckDB reads buffers of 16 such lines unless
// told otherwise, 256 MB a read, where two lines' worth is enough
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const PINNED = `auto_detect = false, strict_mode = true, comment = '', skip = 0, max_line_size = ${MAX_LINE_BYTES}, buffer_size = ${2 * MAX_LINE_BYTES}`;

/** The one column of an NDJSON file's lines (see ndjsonLinesRead). */
export const LINE = 'line';

/**
 * SQL: an NDJSON file's lines as text, one row each, blank ones too, in order, so that a row's
 * number is its line's. Read as a CSV of one column split on a control character, which valid
 * JSON never holds raw: read_json skips blank lines and numbers its errors' lines wrong.
 */
export function ndjsonLinesRead(path: string): string {
  return `read_csv(${quoteLiteral(path)}, ${PINNED}, header = false, delim = E'\\x1F', quote = '', escape = '', columns = {'${LINE}': 'VARCHAR'})`;
}

/**
 * SQL: whether a line read by ndjsonLinesRead holds nothing but JSON's spaces, and is passed over.
 * An object's line is told by its first character: a CASE reads no further (AND and OR read both sides).
 */
export const BLANK_LINE = `(CASE WHEN ${LINE} IS NULL THEN true WHEN starts_with(${LINE}, '{') THEN false ELSE trim(${LINE}, E' \\t\\r') = '' END)`;

const LOCATED = /CSV Error on Line: (\d+)/;
const TOO_MANY = /Expected Number of Columns: (\d+) Found: (\d+)/;

/** Why DuckDB could not read a line of the file, in the file's terms; null for an error that is not the file's. */
function lineProblem(message: string, format: SourceFormat): string | null {
  if (/Maximum line size of \d+ bytes exceeded/.test(message)) return `is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB`;
  if (/Invalid unicode/.test(message)) return 'is not UTF-8 text';
  if (format === 'ndjson' && TOO_MANY.test(message)) return 'is not valid JSON (it holds a raw control character)';
  return null;
}

/**
 * DuckDB's refusal of a file as words that say what is wrong and on which line (DuckDB counts a
 * CSV's lines by record: a line break inside quotes is not counted); any other error as it is.
 */
export function readError(error: unknown, format: SourceFormat): unknown {
  const message = error instanceof Error ? error.message : '';
  const name = format === 'csv' ? 'CSV' : 'NDJSON';
  if (/CSV Parser state machine reached an invalid state/.test(message)) {
    return new Error(`the ${name} could not be read: its lines must all end alike (\\n or \\r\\n)`);
  }
  const line = LOCATED.exec(message);
  const problem = line ? lineProblem(message, format) : null;
  return line && problem ? new Error(`line ${line[1]} of the ${name} ${problem}`) : error;
}
