import { csvField } from '../../common/csv-text.ts';
import {
  doubleTextSql,
  exactIntegerSql,
  duneTypeOfDuckdb,
  floatWordSql,
  parseType,
  realDoubleSql,
  timestampDigits,
  timestampTextSql,
} from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ResultColumn } from './row-bytes.ts';
import { servedPartsSql } from './served-parts-sql.ts';

// Result pages are written by DuckDB's COPY, as JSON lines or CSV, so that no value passes through
// JavaScript one by one. These are the columns COPY writes: each cell as the real service spells it,
// JSON numbers where they are exact, integers beyond 2^53 as strings, a double that is no number
// as Trino's word for it (in JSON a string, `"NaN"`), a real as its shortest text (`0.1`), both at
// any depth of a nested value too, timestamps as `YYYY-MM-DD HH:MM:SS.mmm UTC` (the digits of the
// type they are named by), bytes as `0x` hex (at any depth too, see served-parts-sql.ts). Timestamps
// with a time zone are shown in UTC: the connection's TimeZone is UTC. A VARIANT is sent as the JSON
// of its value, as a column of Dune's `json` is.

const DECIMAL_FRACTION = /^DECIMAL\(\d+,[1-9]\d*\)$/;
const FLOAT = /^(FLOAT|DOUBLE)$/;
// a double holds 15 digits exactly
const WIDE_DECIMAL_FRACTION = /^DECIMAL\((1[6-9]|[2-9]\d),[1-9]\d*\)$/;
const TIMESTAMP = /^TIMESTAMP/;
const NESTED = /(\[\d*\]$|^(STRUCT|MAP|UNION)\()/;

/** A timestamp column's text, with the digits of the type the service names it by. */
function timestampText(column: string, type: string): string {
  return timestampTextSql(column, type, timestampDigits(parseType(duneTypeOfDuckdb(type))), ' UTC');
}

/** A float column as the double it is: a FLOAT as the double its shortest text names. */
function floatValue(column: string, type: string): string {
  return type === 'FLOAT' ? realDoubleSql(column) : `${column}::DOUBLE`;
}

/**
 * For a column whose values JSON may hold as numbers or not: the condition under which a value is
 * one, exactly (integers within 2^53, decimals a double holds exactly, finite floats), the number
 * it is written as then, and the text it is written as otherwise. Null for a column of any other type.
 */
function asNumber({ name, type }: ResultColumn): { fits: string; value: string; otherwise: string } | null {
  const c = quoteIdentifier(name);
  const text = `${c}::VARCHAR`;
  const exact = exactIntegerSql(c, type);
  if (exact) return { fits: exact, value: `${c}::BIGINT`, otherwise: text };
  if (DECIMAL_FRACTION.test(type)) return { fits: `${c}::DOUBLE::${type} = ${c}`, value: `${c}::DOUBLE`, otherwise: text };
  if (FLOAT.test(type)) {
    const double = floatValue(c, type);
    return { fits: `isfinite(${double})`, value: double, otherwise: floatWordSql(double) };
  }
  return null;
}

/** A SQL aggregate, true when all of the rows' values of the column are exact JSON numbers; null where no value needs the test. */
export function jsonNumbersFitSql(column: ResultColumn): string | null {
  const number = asNumber(column);
  return number && `coalesce(bool_and(${number.fits}), true)`;
}

/**
 * A cell's value for DuckDB's JSON (COPY's, or `to_json` of a row): the column as it is where that
 * JSON is the service's, else a JSON value made for it. `numbersFit` says whether all values of the
 * page's column are exact JSON numbers (see `jsonNumbersFitSql`): the test for each cell is left out.
 */
export function jsonCellSql(column: ResultColumn, numbersFit: boolean): string {
  const c = quoteIdentifier(column.name);
  const number = asNumber(column);
  if (number) {
    if (numbersFit) return number.value;
    return `CASE WHEN ${number.fits} THEN to_json(${number.value}) ELSE to_json(${number.otherwise}) END`;
  }
  if (TIMESTAMP.test(column.type)) return timestampText(c, column.type);
  // DuckDB would write a VARIANT's text; its own JSON is the value as it is
  if (column.type === 'VARIANT') return `${c}::JSON`;
  return servedPartsSql(c, column.type);
}

/**
 * A cell's text as the CSV page has it (DuckDB's CSV writer then quotes what needs it): fractions
 * as the double they are, but a decimal wider than a double holds exactly with every digit where
 * the double is not its value; JSON as DuckDB writes it (without the spaces a JSON text was given with).
 */
function csvCellSql(column: ResultColumn): string {
  const { name, type } = column;
  const c = quoteIdentifier(name);
  if (TIMESTAMP.test(type)) return timestampText(c, type);
  if (WIDE_DECIMAL_FRACTION.test(type)) return `CASE WHEN ${asNumber(column)!.fits} THEN ${c}::DOUBLE::VARCHAR ELSE ${c}::VARCHAR END`;
  if (DECIMAL_FRACTION.test(type)) return `${c}::DOUBLE::VARCHAR`;
  if (FLOAT.test(type)) return doubleTextSql(floatValue(c, type));
  if (type === 'JSON') return `json(${c})::VARCHAR`;
  if (NESTED.test(type)) return `to_json(${servedPartsSql(c, type)})::VARCHAR`;
  // DuckDB casts a null VARIANT to the JSON text `null`
  if (type === 'VARIANT') return `CASE WHEN ${c} IS NULL THEN NULL ELSE ${c}::JSON::VARCHAR END`;
  return servedPartsSql(c, type);
}

/** A column of the page that COPY writes as CSV: the cell's text. */
export function csvColumnSql(column: ResultColumn): string {
  return `${csvCellSql(column)} AS ${quoteIdentifier(column.name)}`;
}

/** The CSV header line for these columns. */
export function csvHeader(columns: ResultColumn[]): string {
  return columns.map((c) => csvField(c.name)).join(',');
}

// Parquet holds these as they are, and the CSV page's text of one is DuckDB's text of it, which
// reads back as the same value. HUGEINTs are left out: Parquet has no 128-bit integer, and DuckDB
// would write them as doubles. So are BLOBs: their text is Dune's `0x` hex, not DuckDB's, and a
// client that keeps a column as text (one whose values did not fit its type) keeps that hex.
const PARQUET_AS_IS = /^(BOOLEAN|U?(TINYINT|SMALLINT|INTEGER|BIGINT)|DOUBLE|VARCHAR)$/;
const SHORT_DECIMAL_FRACTION = /^DECIMAL\(([1-9]|1[0-5]),[1-9]\d*\)$/;

/**
 * A column of a page that COPY writes as Parquet, for a client that loads it as it would load the
 * CSV page: the value as it is where the CSV page's text of it reads back as that same value;
 * timestamps cut to the millisecond, as the CSV writes them (a client keeping them as timestamps
 * gets what it gets from the CSV's text, with half the work and fewer bytes); else that text (the
 * CSV cell). Named by position: `c0`, `c1`, … (names may repeat in a result, never in Parquet).
 */
export function parquetColumnSql(column: ResultColumn, position: number): string {
  const c = quoteIdentifier(column.name);
  if (PARQUET_AS_IS.test(column.type)) return `${c} AS c${position}`;
  // CSV has a float, and a decimal with a fraction, as the double it is (the shortest text that
  // reads back as that double); a decimal of up to 15 digits casts back from that double to what
  // it casts back from that text (a double holds 15 digits exactly), for a third of the work
  if (column.type === 'FLOAT' || SHORT_DECIMAL_FRACTION.test(column.type)) return `${floatValue(c, column.type)} AS c${position}`;
  if (TIMESTAMP.test(column.type)) return `date_trunc('millisecond', ${c}) AS c${position}`;
  return `(${csvCellSql(column)})::VARCHAR AS c${position}`;
}
