import { DOUBLE_DIGITS, kindOf, parseType } from '../../common/dune-types/index.ts';
import type { ExportText } from '../../contract/index.ts';
import { quoteName, type Column } from '../../filter-language/index.ts';
import { hexText, timestampText } from '../cache/storage-types.ts';

// What DuckDB's CSV writer is given for each cached column: the text a CSV export has, the same
// text a CSV export straight from the service's pages gets (see csv-pages.ts). `service`: the
// service's CSV, byte for byte; `spreadsheet`: values as the grid shows them, timestamps in a form
// spreadsheets read (see spreadsheet-text.ts in the shared type module).

/** A SELECT expression giving a column's value for DuckDB's CSV writer, in the chosen text. */
export function csvValueExpression(column: Column, text: ExportText): string {
  return text === 'service' ? serviceValue(column) : spreadsheetValue(column);
}

/**
 * As the service's CSV has it: timestamps as the service writes them, fractions as doubles (2.0
 * keeps its `.0`) where a double holds them, bytes as `0x` hex; an empty text is `""`, apart from
 * a null, as DuckDB writes it and the service too.
 */
function serviceValue(column: Column): string {
  const name = quoteName(column.name);
  if (column.type.startsWith('TIMESTAMP')) return timestampText(name);
  if (column.type === 'BLOB') return hexText(name);
  const decimal = /^DECIMAL\((\d+),[1-9]\d*\)$/.exec(column.type);
  if (decimal && Number(decimal[1]) > DOUBLE_DIGITS) {
    // a value with more digits than a double holds is written with every one of them
    const double = `CAST(${name} AS DOUBLE)`;
    return `CASE WHEN CAST(${double} AS ${column.type}) = ${name} THEN CAST(${double} AS VARCHAR) ELSE CAST(${name} AS VARCHAR) END`;
  }
  if (decimal || /^(FLOAT|DOUBLE)$/.test(column.type)) return `CAST(${name} AS DOUBLE)`;
  return name;
}

/**
 * As the grid shows it: a decimal's own text (its scale, every digit), a timestamp without the
 * service's ` UTC` (the connection's zone is UTC), floats as the service writes them (the same
 * shortest digits the grid shows), bytes as `0x` hex.
 */
function spreadsheetValue(column: Column): string {
  const name = quoteName(column.name);
  if (column.type.startsWith('TIMESTAMP')) {
    return `CASE WHEN isfinite(${name}) THEN strftime(CAST(${name} AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.%g') ELSE CAST(${name} AS VARCHAR) END`;
  }
  if (column.type.startsWith('DECIMAL')) return `CAST(${name} AS VARCHAR)`;
  // a timestamp finer than DuckDB keeps is cached as the service's text of it
  if (column.type === 'VARCHAR' && kindOf(parseType(column.duneType ?? '')) === 'timestamp') return `regexp_replace(${name}, ' UTC$', '')`;
  return serviceValue(column);
}
