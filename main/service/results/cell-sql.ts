import { quoteIdentifier, quoteLiteral as literal } from '../storage/duckdb.ts';
import type { ResultColumn } from './row-bytes.ts';

// Result pages are written by DuckDB itself, as JSON objects or CSV lines, so that no value passes
// through JavaScript one by one. The spelling follows the real service: JSON numbers where they are
// exact, integers beyond 2^53 as strings, timestamps as `YYYY-MM-DD HH:MM:SS.mmm UTC`.
// Timestamps with a time zone are shown in UTC: the connection's TimeZone is UTC.

const MAX_EXACT = '9007199254740991';
const WIDE_INTEGER = /^(BIGINT|HUGEINT|DECIMAL\(\d+,0\)|BIGNUM)$/;
const WIDE_UNSIGNED = /^(UBIGINT|UHUGEINT)$/;
const DECIMAL_FRACTION = /^DECIMAL\(\d+,[1-9]\d*\)$/;
const FRACTION = /^(DECIMAL\(\d+,[1-9]\d*\)|FLOAT|DOUBLE)$/;
const TIMESTAMP = /^TIMESTAMP/;
const NESTED = /(\[\d*\]$|^(STRUCT|MAP|UNION)\()/;

function timestampText(column: string): string {
  return `CASE WHEN isfinite(${column}) THEN strftime(${column}::TIMESTAMP, '%Y-%m-%d %H:%M:%S.%g UTC') ELSE ${column}::VARCHAR END`;
}

/** A JSON value for one cell. */
function jsonCell({ name, type }: ResultColumn): string {
  const c = quoteIdentifier(name);
  // Exact values stay exact: a JSON number where one holds the value, else its text.
  if (WIDE_INTEGER.test(type)) {
    return `CASE WHEN ${c} BETWEEN -${MAX_EXACT} AND ${MAX_EXACT} THEN to_json(${c}::BIGINT) ELSE to_json(${c}::VARCHAR) END`;
  }
  // unsigned: never compared with a negative bound (a UHUGEINT past 2^127 has no signed form)
  if (WIDE_UNSIGNED.test(type)) return `CASE WHEN ${c} <= ${MAX_EXACT} THEN to_json(${c}::BIGINT) ELSE to_json(${c}::VARCHAR) END`;
  if (DECIMAL_FRACTION.test(type)) {
    return `CASE WHEN ${c}::DOUBLE::${type} = ${c} THEN to_json(${c}::DOUBLE) ELSE to_json(${c}::VARCHAR) END`;
  }
  if (FRACTION.test(type)) {
    return `CASE WHEN isfinite(${c}::DOUBLE) THEN to_json(${c}::DOUBLE) ELSE to_json(${c}::VARCHAR) END`;
  }
  if (TIMESTAMP.test(type)) return `to_json(${timestampText(c)})`;
  // to_json would give a VARIANT's text; its own JSON is the value as it is
  if (type === 'VARIANT') return `${c}::JSON`;
  return `to_json(${c})`;
}

/** The text of one cell in CSV, before quoting; NULL for a null. */
function csvText({ name, type }: ResultColumn): string {
  const c = quoteIdentifier(name);
  if (TIMESTAMP.test(type)) return timestampText(c);
  if (FRACTION.test(type)) return `${c}::DOUBLE::VARCHAR`;
  if (NESTED.test(type)) return `to_json(${c})::VARCHAR`;
  // a VARIANT holding an object or a list is written as JSON, as nested columns are
  if (type === 'VARIANT') return `CASE WHEN json_type(${c}::JSON) IN ('OBJECT', 'ARRAY') THEN ${c}::JSON::VARCHAR ELSE ${c}::VARCHAR END`;
  return `${c}::VARCHAR`;
}

/** Each row as one JSON object text, keyed by column name in column order. */
export function rowJsonSql(columns: ResultColumn[]): string {
  if (columns.length === 0) return `'{}'`;
  return `json_object(${columns.map((c) => `${literal(c.name)}, ${jsonCell(c)}`).join(', ')})::VARCHAR`;
}

/** RFC 4180 quoting: a field holding a comma, quote or line break is quoted, its quotes doubled. */
function csvField(text: string): string {
  const quoted = `'"' || replace(${text}, '"', '""') || '"'`;
  return `CASE WHEN (${text}) IS NULL THEN '' WHEN regexp_matches(${text}, '[",\\r\\n]') THEN ${quoted} ELSE ${text} END`;
}

// Values of these types never hold a comma, quote or line break, so they skip the quoting test.
const PLAIN_TEXT =
  /^(BOOLEAN|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL\(.*\)|DATE|TIME|TIMESTAMP.*|UUID)$/;

/** Each row as one CSV line, without its line break. */
export function rowCsvSql(columns: ResultColumn[]): string {
  if (columns.length === 0) return `''`;
  return columns
    .map((c) => (PLAIN_TEXT.test(c.type) ? `coalesce(${csvText(c)}, '')` : csvField(csvText(c))))
    .join(` || ',' || `);
}

/** The CSV header line for these columns. */
export function csvHeader(columns: ResultColumn[]): string {
  return columns.map((c) => (/[",\r\n]/.test(c.name) ? `"${c.name.replaceAll('"', '""')}"` : c.name)).join(',');
}
