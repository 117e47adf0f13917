import { decimalTextSql, DOUBLE_DIGITS, doubleTextSql, floatWordSql, kindOf, parseType } from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { ExportText } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import { cachedValue, hexText, timestampText } from '../cache/storage-types.ts';

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
  if (column.type === 'BLOB') return hexText(name);
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

// DuckDB's text of a double in scientific form: one digit, maybe more after the point, the exponent
const SCIENTIFIC = String.raw`'^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$'`;

/**
 * floatText of the shared type module in DuckDB's SQL: DuckDB writes the same shortest digits as
 * JavaScript, laid out otherwise (`8e-05` for 0.00008, `2.0` for 2, `1e+20` for 10^20); JavaScript
 * writes a double's digits in full from 10^-6 up to 10^21 and in scientific form outside it.
 */
function floatTextSql(double: string): string {
  const text = `CAST(${double} AS VARCHAR)`;
  const part = (group: number) => `regexp_extract(${text}, ${SCIENTIFIC}, ${group})`;
  const digits = `(${part(2)} || ${part(3)})`;
  const exponent = `CAST(nullif(${part(4)}, '') AS INTEGER)`;
  const laidOut = `CASE WHEN ${exponent} < 0 THEN '0.' || repeat('0', -${exponent} - 1) || ${digits}
    WHEN length(${digits}) <= ${exponent} + 1 THEN rpad(${digits}, ${exponent} + 1, '0')
    ELSE substr(${digits}, 1, ${exponent} + 1) || '.' || substr(${digits}, ${exponent} + 2) END`;
  return String.raw`CASE WHEN NOT isfinite(${double}) THEN ${floatWordSql(double)}
    WHEN ${double} = 0 THEN '0'
    WHEN NOT regexp_full_match(${text}, ${SCIENTIFIC}) THEN regexp_replace(${text}, '\.0$', '')
    WHEN ${exponent} BETWEEN -6 AND 20 THEN ${part(1)} || ${laidOut}
    ELSE regexp_replace(${text}, 'e([+-])0*(\d)', 'e\1\2') END`;
}
