import { binaryTextSql, decimalTextSql, DOUBLE_DIGITS, doubleTextSql, kindOf, parseType } from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ExportText } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import { cachedValue, timestampText } from '../cache/storage-types.ts';
import { floatTextSql } from './float-text-sql.ts';

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
 * keeps its `.0`) where a double holds them, a double that is no number as Dune's word for it
 * (`NaN`, not DuckDB's `nan`), bytes as `0x` hex; an empty text is `""`, apart from a null, as
 * DuckDB writes it and the service too.
 */
function serviceValue(column: Column): string {
  const name = quoteIdentifier(column.name);
  if (column.type.startsWith('TIMESTAMP')) return timestampText(column);
  if (column.type === 'BLOB') return binaryTextSql(name);
  const decimal = /^DECIMAL\((\d+),[1-9]\d*\)$/.exec(column.type);
  if (decimal && Number(decimal[1]) > DOUBLE_DIGITS) {
    // a value with more digits than a double holds is written with every one of them
    const double = `CAST(${name} AS DOUBLE)`;
    return `CASE WHEN CAST(${double} AS ${column.type}) = ${name} THEN CAST(${double} AS VARCHAR) ELSE CAST(${name} AS VARCHAR) END`;
  }
  if (decimal) return `CAST(${name} AS DOUBLE)`;
  if (/^(FLOAT|DOUBLE)$/.test(column.type)) return doubleTextSql(cachedValue(column));
  return name;
}

/**
 * As the grid shows it: a decimal's own text (see decimalText in the shared type module), a
 * timestamp without the service's ` UTC` (the connection's zone is UTC), a float as the grid writes
 * it (see floatText), bytes as `0x` hex.
 */
function spreadsheetValue(column: Column): string {
  const name = quoteIdentifier(column.name);
  if (column.type.startsWith('TIMESTAMP')) return timestampText(column, name, '');
  if (column.type.startsWith('DECIMAL')) return decimalTextSql(name);
  if (/^(FLOAT|DOUBLE)$/.test(column.type)) return floatTextSql(cachedValue(column));
  // a timestamp finer than DuckDB keeps is cached as the service's text of it
  if (column.type === 'VARCHAR' && kindOf(parseType(column.duneType ?? '')) === 'timestamp') return `regexp_replace(${name}, ' UTC$', '')`;
  return serviceValue(column);
}
