import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { BLANK_LINE, LINE, type SourceFormat } from './source-reads.ts';
import { DATA } from './table-files.ts';
import { listedColumnType } from './table-input.ts';
import { readText } from './text-to-column.ts';

// Rows of an insert, staged as text (a CSV's values, or an NDJSON file's lines), added to a
// table: each value read into its column's type exactly (text-to-column.ts), or, at the first
// value that cannot be, none of them, with the row, the column and the reason.

interface Column {
  name: string;
  type: string;
  nullable: boolean;
}

const ROW = '"#row"';
const REFUSED = 'a value cannot be inserted as it is';
// how much of a refused value its error shows
const SHOWN_CHARS = 60;

/** SQL: the staged rows, numbered (a CSV's by row after its header, NDJSON's by line), as text in columns t0, t1, … */
function stagedTexts(source: string, columns: Column[], format: SourceFormat): string {
  if (format === 'csv')
    return `SELECT rowid + 1 AS ${ROW}, ${columns.map((c, i) => `${q(c.name)} AS t${i}`).join(', ')} FROM ${source}.${DATA}`;
  // as text: a string's own (unescaped), any other value's JSON
  const keys = quoteLiteral(JSON.stringify(Object.fromEntries(columns.map((c) => [c.name, 'VARCHAR']))));
  const values = `SELECT rowid + 1 AS ${ROW}, json_transform(${LINE}, ${keys}) AS v FROM ${source}.${DATA} WHERE NOT ${BLANK_LINE}`;
  return `SELECT ${ROW}, ${columns.map((c, i) => `v.${q(c.name)} AS t${i}`).join(', ')} FROM (${values})`;
}

/** SQL: why column i's text cannot go into its column as it is; NULL when it can. */
function problem(column: Column, i: number): string {
  const reading = readText(`t${i}`, column.type);
  return `CASE WHEN t${i} IS NULL THEN ${column.nullable ? 'NULL' : "'no value'"} WHEN ${reading.accepts} THEN NULL ELSE ${reading.reason} END`;
}

/** SQL: column i's value from its text, or an error (for firstRefused to name) where it has none. */
function value(column: Column, i: number): string {
  const reading = readText(`t${i}`, column.type);
  const refused = `error('${REFUSED}')`;
  return `CASE WHEN t${i} IS NULL THEN ${column.nullable ? 'NULL' : refused} WHEN ${reading.accepts} THEN ${reading.value} ELSE ${refused} END`;
}

/** Adds the staged rows of `source` to the table of `target` (both attached), all of them or, with the first refused value named, none. */
export async function insertStaged(
  c: DuckDBConnection,
  target: string,
  source: string,
  columns: Column[],
  format: SourceFormat,
): Promise<void> {
  const texts = stagedTexts(source, columns, format);
  try {
    await c.run(
      `INSERT INTO ${target}.${DATA} (${columns.map((column) => q(column.name)).join(', ')}) SELECT ${columns.map(value).join(', ')} FROM (${texts})`,
    );
  } catch (error) {
    throw (await firstRefused(c, texts, columns, format)) ?? error;
  }
}

/** The first value of the staged rows that cannot go into its column, as the error to answer; null when there is none. */
async function firstRefused(c: DuckDBConnection, texts: string, columns: Column[], format: SourceFormat): Promise<Error | null> {
  const problems = columns.map(problem);
  const reader = await c.runAndReadAll(
    `SELECT ${ROW}::BIGINT AS n, [${problems.join(', ')}] AS problems, [${columns.map((_, i) => `t${i}`).join(', ')}] AS texts
     FROM (${texts}) WHERE ${problems.map((p) => `(${p}) IS NOT NULL`).join(' OR ')} ORDER BY ${ROW} LIMIT 1`,
  );
  const found = reader.getRowObjectsJS()[0] as { n: bigint; problems: (string | null)[]; texts: (string | null)[] } | undefined;
  if (!found) return null;
  const i = found.problems.findIndex((p) => p !== null);
  const column = columns[i]!;
  const where = format === 'csv' ? `row ${found.n} after the header` : `line ${found.n}`;
  const named = `column ${column.name} (${listedColumnType(column.type)})`;
  const text = found.texts[i];
  if (text === null || text === undefined) return new Error(`${where}: ${named} has no value, and may not be null`);
  // on one line: a value's line breaks and other control characters shown as JSON escapes them
  const shown = (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text).replace(/\p{Cc}/gu, (char) =>
    JSON.stringify(char).slice(1, -1),
  );
  return new Error(`${where}: ${named} cannot hold '${shown}': ${found.problems[i]}`);
}
