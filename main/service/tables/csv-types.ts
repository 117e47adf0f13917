import type { DuckDBConnection } from '@duckdb/node-api';
import { exactIntegerSql } from '../../common/dune-types/index.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { readText } from './text-to-column.ts';

// The types of an uploaded CSV's columns (notes §9: "Schema is inferred"), from every value of
// each, not from a sample of the first rows: for each column the narrowest type that holds every
// one of its values exactly as written, else text. A whole number keeps every digit (past BIGINT
// in a wider integer); a double is taken only where each value is the double it names; `007` and
// `+5` stay text, as a number would lose how they are written.

// Each value's form, a bit each, OR-ed over the column.
const BIGINT_WHOLE = 1;
const WIDE_WHOLE = 2;
const FRACTION = 4;
const DATE = 8;
const TIMESTAMP = 16;
const BOOLEAN = 32;
const OTHER = 64;
// with a number's form: no double holds it exactly (a whole number past 2^53 is taken for one)
const NOT_DOUBLE = 128;

// JSON's numbers: no `+`, no leading zero
const PLAIN_WHOLE = '-?(0|[1-9][0-9]*)';
const PLAIN_NUMBER = `${PLAIN_WHOLE}(\\.[0-9]+)?([eE][-+]?[0-9]+)?`;

/**
 * SQL: the form of a text value, as the bits above (0 for NULL). Told apart by the first
 * character before any pattern is tried, as this runs on every value of the file; a CASE, as it
 * reads no further than it must.
 */
function form(text: string): string {
  const fits = (type: string) => `coalesce(${readText(text, type).accepts}, false)`;
  const first = `ascii(${text})`;
  const bigint = `TRY_CAST(${text} AS BIGINT)`;
  return `CASE WHEN ${text} IS NULL THEN 0
    WHEN NOT (${first} BETWEEN 48 AND 57 OR ${first} = 45) THEN CASE WHEN ${fits('BOOLEAN')} THEN ${BOOLEAN} ELSE ${OTHER} END
    WHEN substr(${text}, 5, 1) = '-' THEN CASE WHEN ${fits('DATE')} THEN ${DATE} WHEN ${fits('TIMESTAMP')} THEN ${TIMESTAMP} ELSE ${OTHER} END
    WHEN regexp_full_match(${text}, ${quoteLiteral(PLAIN_WHOLE)}) THEN
      CASE WHEN ${bigint} IS NULL THEN ${WIDE_WHOLE | NOT_DOUBLE} WHEN ${exactIntegerSql(bigint, 'BIGINT')} THEN ${BIGINT_WHOLE} ELSE ${BIGINT_WHOLE | NOT_DOUBLE} END
    WHEN regexp_full_match(${text}, ${quoteLiteral(PLAIN_NUMBER)}) THEN CASE WHEN ${fits('DOUBLE')} THEN ${FRACTION} ELSE ${FRACTION | NOT_DOUBLE} END
    ELSE ${OTHER} END`;
}

/** Whether every form in `forms` is one of `allowed`. */
const only = (forms: number, allowed: number) => (forms & ~allowed) === 0;

/** The types a column of these forms may have, narrowest first, each to be checked on its values when more than one; none for text. */
function candidates(forms: number): string[] {
  const numbers = forms & ~NOT_DOUBLE;
  if (forms === 0) return [];
  if (only(numbers, BIGINT_WHOLE)) return ['BIGINT'];
  if (only(numbers, BIGINT_WHOLE | WIDE_WHOLE)) return ['HUGEINT', 'UHUGEINT', 'BIGNUM'];
  if (only(forms, BIGINT_WHOLE | WIDE_WHOLE | FRACTION)) return ['DOUBLE'];
  if (only(forms, DATE)) return ['DATE'];
  if (only(forms, DATE | TIMESTAMP)) return ['TIMESTAMP'];
  if (only(forms, BOOLEAN)) return ['BOOLEAN'];
  return [];
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
