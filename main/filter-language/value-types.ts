import { floatWord, kindOf, parseType, readDecimal, type TypeKind } from '../common/dune-types/index.ts';
import type { Literal } from './ast.ts';
import { FilterLanguageError } from './errors.ts';
import type { Column } from './table-column.ts';

// A filter's value is checked against its column's type before any SQL is made, so that the live
// check in the app, the cache and the service refuse `amount_usd > 'abc'` alike, at the value's
// position, instead of DuckDB failing on the cast. Generous on purpose: what DuckDB might still
// refuse is its 400; what it would accept is never refused here. Every type has an order in
// DuckDB, so no operator is refused for a type; a nested column compares with no single value.

const NUMBER = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;
const DATE_START = /^\s*(\d{4,}-\d{1,2}-\d{1,2}|[-+]?infinity|epoch)/i;
const BOOLEAN = /^\s*(true|false|t|f|y|n|yes|no|on|off|1|0)\s*$/i;
const HEX = /^\s*0x([0-9a-f]{2})*\s*$/i;
// DuckDB's decimals keep up to 38 digits after the point: a number compared with an integer or a
// decimal column is read exactly with its point moved that far (exact-numbers.ts).
const MOST_DECIMAL_PLACES = 38;

function refuse(value: Literal, problem: string): never {
  throw new FilterLanguageError('filters', value.position, problem);
}

/** The column's type as the service named it, in lower case, for messages. */
export function typeLabel(column: Column): string {
  return (column.duneType ?? column.type).trim().toLowerCase();
}

/** What the column holds: by the service's name for its type where known, else by its DuckDB type. */
export function columnKind(column: Column): TypeKind {
  return kindOf(parseType(column.duneType ?? column.type));
}

/** Throws when `value` cannot be a value of `column`'s type. */
export function checkValue(column: Column, value: Literal): void {
  const kind = columnKind(column);
  const type = typeLabel(column);
  const text = value.text;
  switch (kind) {
    case 'nested':
    case 'json':
      return refuse(value, `${column.name} is of type ${type}, which compares with no single value; use IS NULL or LIKE`);
    case 'integer':
    case 'big-integer':
    case 'decimal':
      if (!NUMBER.test(text)) refuse(value, `${column.name} holds numbers (${type}); '${text}' is not a number`);
      if (readDecimal(text, MOST_DECIMAL_PLACES) === null) {
        refuse(value, `${column.name} holds numbers (${type}); '${text}' has too many digits to compare exactly`);
      }
      return;
    case 'float':
      if (!NUMBER.test(text) && floatWord(text) === null)
        refuse(value, `${column.name} holds numbers (${type}); '${text}' is not a number`);
      return;
    case 'date':
    case 'timestamp':
      if (!DATE_START.test(text))
        refuse(value, `${column.name} holds dates (${type}); '${text}' is not a date, write one as 2024-01-31 or 2024-01-31 12:00:00`);
      return;
    case 'boolean':
      if (!BOOLEAN.test(text)) refuse(value, `${column.name} holds true or false (${type}); '${text}' is neither`);
      return;
    case 'binary':
      if (!HEX.test(text)) refuse(value, `${column.name} holds bytes (${type}); write a value as 0x and hex digits, as 0xd8da6bf2`);
      return;
    default:
  }
}
