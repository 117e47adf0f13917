import type { DuckDBConnection } from '@duckdb/node-api';
import { BOOLEAN_WORDS, candidates, FORM, VALUE_PATTERNS } from '../../common/csv-column-types.ts';
import { exactIntegerSql } from '../../common/dune-types/index.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { readText } from './text-to-column.ts';

// The types of an uploaded CSV's columns, from every value of each, not from a sample of the first
// rows, by the rule of main/common/csv-column-types.ts (which the upload form applies too): here
// in SQL, as it reads the whole file at once, each value's form told by DuckDB's own casts.

/**
 * SQL: the form of a text value, as FORM's bits (0 for NULL). Text is told apart by the first
 * character before any pattern is tried, as this runs on every value of the file; a CASE, as it
 * reads no further than it must.
 */
function form(text: string): string {
  const fits = (type: string) => `coalesce(${readText(text, type).accepts}, false)`;
  const matches = (pattern: string) => `regexp_full_match(${text}, ${quoteLiteral(pattern)})`;
  const first = `ascii(${text})`;
  const bigint = `TRY_CAST(${text} AS BIGINT)`;
  const { BIGINT_WHOLE, WIDE_WHOLE, FRACTION, DATE, TIMESTAMP, BOOLEAN, OTHER, NOT_DOUBLE } = FORM;
  return `CASE WHEN ${text} IS NULL THEN 0
    WHEN NOT (${first} BETWEEN 48 AND 57 OR ${first} = 45) THEN CASE WHEN lower(${text}) IN (${BOOLEAN_WORDS.map(quoteLiteral).join(', ')}) THEN ${BOOLEAN} ELSE ${OTHER} END
    WHEN ${matches(VALUE_PATTERNS.whole)} THEN
      CASE WHEN ${bigint} IS NULL THEN ${WIDE_WHOLE | NOT_DOUBLE} WHEN ${exactIntegerSql(bigint, 'BIGINT')} THEN ${BIGINT_WHOLE} ELSE ${BIGINT_WHOLE | NOT_DOUBLE} END
    WHEN ${matches(VALUE_PATTERNS.number)} THEN CASE WHEN ${fits('DOUBLE')} THEN ${FRACTION} ELSE ${FRACTION | NOT_DOUBLE} END
    WHEN ${matches(VALUE_PATTERNS.date)} THEN CASE WHEN ${fits('DATE')} THEN ${DATE} ELSE ${OTHER} END
    WHEN ${matches(VALUE_PATTERNS.timestamp)} THEN CASE WHEN ${fits('TIMESTAMP')} THEN ${TIMESTAMP} ELSE ${OTHER} END
    ELSE ${OTHER} END`;
}

// Rows whose forms are read first: a column whose first values already rule out every type but
// text is text whatever follows (a column's forms only add up, and no type takes more forms than
// one of fewer), and is not read again.
const SAMPLE_ROWS = 16_384;

/** The forms of each of `columns` (indices into `names`) over the rows `from` reads. */
async function formsOf(c: DuckDBConnection, from: string, names: string[], columns: number[]): Promise<Map<number, number>> {
  const sql = columns.map((i) => `bit_or(${form(q(names[i]!))})::INTEGER AS f${i}`).join(', ');
  const row = (await c.runAndReadAll(`SELECT ${sql} FROM ${from}`)).getRowObjectsJS()[0]!;
  return new Map(columns.map((i) => [i, Number(row[`f${i}`] ?? 0)]));
}

/**
 * DuckDB's type for each column of `read` (SQL of a table of text columns named `names`): read
 * for each value's form (the first rows, then the whole file for the columns they left open), and,
 * for a column of whole numbers past BIGINT, once more to find the narrowest wide integer that
 * holds them all.
 */
export async function csvColumnTypes(c: DuckDBConnection, read: string, names: string[]): Promise<string[]> {
  const all = names.map((_, i) => i);
  const sampled = await formsOf(c, `(SELECT * FROM ${read} LIMIT ${SAMPLE_ROWS})`, names, all);
  // a column with no value yet is open too
  const open = all.filter((i) => sampled.get(i) === 0 || candidates(sampled.get(i)!).length > 0);
  const whole = open.length === 0 ? new Map<number, number>() : await formsOf(c, read, names, open);
  const choices = all.map((i) => (whole.has(i) ? candidates(whole.get(i)!) : []));
  const checks = choices.flatMap((types, column) => (types.length > 1 ? types.map((type) => ({ column, type })) : []));
  const held = new Map<string, boolean>();
  if (checks.length > 0) {
    const sql = checks.map(({ column, type }) => {
      const text = q(names[column]!);
      return `bool_and(${text} IS NULL OR TRY_CAST(${text} AS ${type}) IS NOT NULL) AS "${column} ${type}"`;
    });
    const row = (await c.runAndReadAll(`SELECT ${sql.join(', ')} FROM ${read}`)).getRowObjectsJS()[0]!;
    for (const [key, value] of Object.entries(row)) held.set(key, value === true);
  }
  return choices.map((types, i) => types.find((type) => held.get(`${i} ${type}`) ?? true) ?? 'VARCHAR');
}
