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

/**
 * DuckDB's type for each column of `read` (SQL of a table of text columns named `names`): read
 * once for each value's form, and, for a column of whole numbers past BIGINT, once more to find
 * the narrowest wide integer that holds them all.
 */
export async function csvColumnTypes(c: DuckDBConnection, read: string, names: string[]): Promise<string[]> {
  const formsRead = await c.runAndReadAll(
    `SELECT ${names.map((name, i) => `bit_or(${form(q(name))})::INTEGER AS f${i}`).join(', ')} FROM ${read}`,
  );
  const choices = Object.values(formsRead.getRowObjectsJS()[0]!).map((forms) => candidates(Number(forms ?? 0)));
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
