import {
  decimalTextSql,
  DOUBLE_DIGITS,
  exactIntegerSql,
  floatWordSql,
  isStructured,
  kindOf,
  parseType,
} from '../../common/dune-types/index.ts';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import type { Column } from '../../filter-language/index.ts';
import { cachedValue, cellExpression } from '../cache/storage-types.ts';
import { floatTextSql } from './float-text-sql.ts';

// A JSON lines export from the cache: each row's JSON text made in SQL, value by value, and
// written by DuckDB's CSV writer as it is. COPY's own JSON format reads every JSON value it is
// given back through a double before writing it, so a nested value's `1.123456789012345678`
// would become `1.1234567890123457` and `1.50` `1.5`: here no value is handed to it as JSON.
// Each value has the text the grid shows for it. JSON has no time, no bytes and no number for a
// double that is no number: a timestamp is its text as Dune writes it, bytes `0x` hex, such a
// double Dune's word for it (`"NaN"`), each a JSON string; so is a number whose digits a reader's
// double would not keep. A float is laid out as the grid writes it (`2`, not DuckDB's `2.0`).

/** COPY's options for writing each row's JSON text (see jsonLineSelect) as a line, unquoted. */
export const JSON_LINES_COPY = `FORMAT csv, HEADER false, QUOTE '', ESCAPE '', FORCE_QUOTE *`;

/** The SELECT list of a JSON lines COPY: one column, each row's JSON object, keys in the columns' order. */
export function jsonLineSelect(columns: Column[]): string {
  const fields = columns.map(
    (column, i) => `${quoteLiteral(`${i === 0 ? '' : ','}${JSON.stringify(column.name)}:`)} || coalesce(${jsonValueSql(column)}, 'null')`,
  );
  return `${["'{'", ...fields, "'}'"].join(' || ')} AS line`;
}

/** SQL: DuckDB's JSON text of an expression's value: a string for text, a number for a number. */
function jsonOf(expression: string): string {
  return `CAST(to_json(${expression}) AS VARCHAR)`;
}

/**
 * SQL: a column's value as JSON text; NULL for a null. A value whose cell is text (a timestamp,
 * bytes, a date) is a JSON string of the grid's cell of it (see cellExpression).
 */
function jsonValueSql(column: Column): string {
  const name = quoteIdentifier(column.name);
  if (/^(FLOAT|DOUBLE)$/.test(column.type)) {
    const double = cachedValue(column);
    return `CASE WHEN isfinite(${double}) THEN ${floatTextSql(double)} ELSE ${jsonOf(floatWordSql(double))} END`;
  }
  if (/^DECIMAL\(\d+,[1-9]\d*\)$/.test(column.type)) return decimalJson(name);
  // past what a double holds, a string of its digits, as a cell has it (see numberCell)
  const exact = exactIntegerSql(name, column.type);
  if (exact) return `CASE WHEN ${exact} THEN CAST(${name} AS VARCHAR) ELSE ${jsonOf(`CAST(${name} AS VARCHAR)`)} END`;
  const cell = cellExpression(column);
  if (column.type === 'VARCHAR' && isStructured(kindOf(parseType(column.duneType ?? '')))) return nestedJson(name, cell);
  return jsonOf(cell);
}

/**
 * A nested or JSON value is the grid's cell of it, the JSON text it came as with every digit as
 * written and no space between its parts (see nestedTextSql), so no line break. Text that is no
 * JSON is a string of it.
 */
function nestedJson(name: string, cell: string): string {
  return `CASE WHEN json_valid(${name}) THEN ${cell} ELSE ${jsonOf(cell)} END`;
}

/**
 * A decimal as the grid shows it (see decimalText: its scale, every digit): a JSON number where a
 * double holds its digits, else a string of them, as a cell has it (see numberCell).
 */
function decimalJson(name: string): string {
  const text = decimalTextSql(name);
  const digits = `length(trim(regexp_replace(CAST(${name} AS VARCHAR), '[-.]', '', 'g'), '0'))`;
  return `CASE WHEN ${digits} <= ${DOUBLE_DIGITS} THEN ${text} ELSE ${jsonOf(text)} END`;
}
