import type { DuckDBConnection } from '@duckdb/node-api';
import { parseType } from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ExportFormat, ExportText } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import { csvValueExpression } from './csv-values.ts';
import { JSON_LINES_COPY, jsonLineSelect } from './json-lines.ts';

// What DuckDB's COPY writes for each format, from a cached table. CSV has the text chosen (see
// csv-values.ts), a JSON line each value's JSON text (see json-lines.ts); Parquet keeps the cached
// types, so exact values stay exact, and a real is a FLOAT again.

export const COPY_OPTIONS: Record<ExportFormat, string> = {
  csv: `FORMAT csv, HEADER, DELIMITER ',', QUOTE '"', ESCAPE '"', NULLSTR ''`,
  parquet: 'FORMAT parquet',
  jsonl: JSON_LINES_COPY,
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
  if (format === 'jsonl') return jsonLineSelect(columns);
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

/** For each column, whether every value has at most 38 digits. */
async function fitDecimal(connection: DuckDBConnection, table: string, columns: Column[]): Promise<boolean[]> {
  const checks = columns.map(
    (c) => `bool_and(${quoteIdentifier(c.name)} IS NULL OR TRY_CAST(${quoteIdentifier(c.name)} AS DECIMAL(38,0)) IS NOT NULL)`,
  );
  const row = (await connection.runAndReadAll(`SELECT ${checks.join(', ')} FROM ${table}`)).getRows()[0] ?? [];
  return columns.map((_, i) => row[i] !== false);
}
