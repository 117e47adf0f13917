import { quoteLiteral } from '../../common/sql-quote.ts';

// How an uploaded file is read into DuckDB: strictly, every value as the text it is, so that
// nothing is guessed from a sample of the rows and nothing is changed on the way in; each value
// is then read into its column's type exactly (text-to-column.ts). DuckDB's CSV sniffer, left to
// itself, took `;` for the delimiter, a ragged file for one column of raw lines, and a type from
// the first rows that a later row did not fit.

/** What an uploaded or inserted file holds. */
export type SourceFormat = 'csv' | 'ndjson';

// as long as read_json's largest object by default; DuckDB reads buffers of 16 such lines unless
// told otherwise, 256 MB a read, where two lines' worth is enough
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const PINNED = `auto_detect = false, strict_mode = true, comment = '', skip = 0, max_line_size = ${MAX_LINE_BYTES}, buffer_size = ${2 * MAX_LINE_BYTES}`;

/** SQL: a CSV file's rows (RFC 4180), its first line skipped, as text in columns of these names. */
export function csvTextRead(path: string, names: string[]): string {
  const columns = `{${names.map((name) => `${quoteLiteral(name)}: 'VARCHAR'`).join(', ')}}`;
  // a quoted empty field is an empty text; an empty one unquoted is no value
  return `read_csv(${quoteLiteral(path)}, ${PINNED}, header = true, delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, columns = ${columns})`;
}

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
const ORIGINAL = /\nOriginal Line: (.*)/;
// how much of the line DuckDB could not read its error shows
const SHOWN_CHARS = 60;

/** The start of the line an error quotes, to show with it; empty when it quotes none. */
function quoted(message: string): string {
  const line = ORIGINAL.exec(message)?.[1];
  if (!line) return '';
  return `: '${line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line}'`;
}

/** Why DuckDB could not read a line of the file, in the file's terms; null for an error that is not the file's. */
function lineProblem(message: string, format: SourceFormat): string | null {
  if (/Maximum line size of \d+ bytes exceeded/.test(message)) return `is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB`;
  if (/Invalid unicode/.test(message)) return 'is not UTF-8 text';
  if (format === 'ndjson') return TOO_MANY.test(message) ? 'is not valid JSON (it holds a raw control character)' : null;
  const count = TOO_MANY.exec(message);
  if (count) return `has ${count[2]} values where the header names ${count[1]} columns${quoted(message)}`;
  if (/unterminated quote/.test(message)) return 'has a quoted value whose quote is not closed (or has text after it)';
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
    return new Error(
      `the ${name} could not be read: its lines must all end alike (\\n or \\r\\n)${format === 'csv' ? ', and it must be RFC 4180 CSV' : ''}`,
    );
  }
  const line = LOCATED.exec(message);
  const problem = line ? lineProblem(message, format) : null;
  return line && problem ? new Error(`line ${line[1]} of the ${name} ${problem}`) : error;
}
