import type { DuckDBConnection } from '@duckdb/node-api';
import { floatWordSql, isStructured, kindOf, parseType } from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ExportFormat, ExportText } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import { cachedValue, hexText, timestampText } from '../cache/storage-types.ts';
import { csvValueExpression } from './csv-values.ts';

// What DuckDB's COPY writes for each format, from a cached table. CSV has the text chosen (see
// csv-values.ts); Parquet and JSON lines keep the cached types, so exact values stay exact, and a
// real is a FLOAT again in Parquet. JSON has no number for a double that is no number: a JSON line
// has Dune's word for it as a string (`"NaN"`), as Dune's JSON and the grid's JSON rows have it.
// Nor has it a time: a JSON line has a timestamp's text as the grid shows it and Dune writes it.

export const COPY_OPTIONS: Record<ExportFormat, string> = {
  csv: `FORMAT csv, HEADER, DELIMITER ',', QUOTE '"', ESCAPE '"', NULLSTR ''`,
  parquet: 'FORMAT parquet',
  // newline-delimited: DuckDB writes one object a line unless asked for an array
  jsonl: 'FORMAT json',
};

const HUGE = /^U?HUGEINT$/;

/**
 * The SELECT list of a COPY in `format` (`text`: how CSV writes values); reads `table` when Parquet
 * has to choose how a 128-bit integer is kept.
 */
export async function copySelectList(
  connection: DuckDBConnection,
  format: ExportFormat,
  text: ExportText,
  table: string,
  columns: Column[],
): Promise<string> {
  if (format === 'csv') return columns.map((c) => `${csvValueExpression(c, text)} AS ${quoteIdentifier(c.name)}`).join(', ');
  if (format === 'jsonl') return columns.map(jsonValueExpression).join(', ');
  const huge = columns.filter((c) => HUGE.test(c.type));
  const fits = huge.length === 0 ? [] : await fitDecimal(connection, table, huge);
  return columns
    .map((c) => {
      const name = quoteIdentifier(c.name);
      if (c.type === 'DOUBLE' && parseType(c.duneType ?? '').name === 'real') return `CAST(${name} AS FLOAT) AS ${name}`;
      if (!HUGE.test(c.type)) return name;
      // Parquet has no 128-bit integer and DuckDB would write a DOUBLE; DECIMAL(38,0) keeps every
      // digit up to 38 of them, and past that the digits are kept as text rather than rounded
      return `CAST(${name} AS ${fits[huge.indexOf(c)] ? 'DECIMAL(38,0)' : 'VARCHAR'}) AS ${name}`;
    })
    .join(', ');
}

/**
 * A column for a JSON line: timestamps as the grid shows them (see timestampText), bytes as `0x`
 * hex, floats as JSON has them, nested values and JSON as JSON rather than text of it.
 */
function jsonValueExpression(column: Column): string {
  const name = quoteIdentifier(column.name);
  if (column.type.startsWith('TIMESTAMP')) return `${timestampText(column)} AS ${name}`;
  if (column.type === 'BLOB') return `${hexText(name)} AS ${name}`;
  if (/^(FLOAT|DOUBLE)$/.test(column.type)) {
    const double = cachedValue(column);
    return `CASE WHEN isfinite(${double}) THEN to_json(${double}) ELSE to_json(${floatWordSql(double)}) END AS ${name}`;
  }
  const kind = kindOf(parseType(column.duneType ?? column.type));
  return isStructured(kind) && column.type === 'VARCHAR' ? `json(${name}) AS ${name}` : name;
}

/** For each column, whether every value has at most 38 digits. */
async function fitDecimal(connection: DuckDBConnection, table: string, columns: Column[]): Promise<boolean[]> {
  const checks = columns.map(
    (c) => `bool_and(${quoteIdentifier(c.name)} IS NULL OR TRY_CAST(${quoteIdentifier(c.name)} AS DECIMAL(38,0)) IS NOT NULL)`,
  );
  const row = (await connection.runAndReadAll(`SELECT ${checks.join(', ')} FROM ${table}`)).getRows()[0] ?? [];
  return columns.map((_, i) => row[i] !== false);
}
