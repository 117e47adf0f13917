import type { Literal } from './ast.ts';
import type { Column } from './compile.ts';
import { FilterLanguageError } from './errors.ts';

// A filter's value is checked against its column's type before any SQL is made, so that the live
// check in the app, the cache and the service refuse `amount_usd > 'abc'` alike, at the value's
// position, instead of DuckDB failing on the cast. Generous on purpose: what DuckDB might still
// refuse is its 400; what it would accept is never refused here. Every type has an order in
// DuckDB, so no operator is refused for a type; a nested column compares with no single value.

const NUMBER_TYPE = /^(u?(tiny|small|big|huge)?int(eger)?|u?int(8|16|32|64|128)|double|float[48]?|real|decimal(\(\s*\d+\s*,\s*\d+\s*\))?|numeric.*|bignum|varint)$/i;
const FLOAT_TYPE = /^(double|float[48]?|real)$/i;
const TEMPORAL_TYPE = /^(date|timestamp.*|datetime)$/i;
const BOOLEAN_TYPE = /^(boolean|bool)$/i;
const NESTED_TYPE = /(\[\d*\]$|^(struct|map|union)\s*\()/i;

const NUMBER = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;
const FLOAT_WORD = /^\s*[-+]?(inf|infinity|nan)\s*$/i;
const DATE_START = /^\s*(\d{4,}-\d{1,2}-\d{1,2}|[-+]?infinity|epoch)/i;
const BOOLEAN = /^\s*(true|false|t|f|y|n|yes|no|on|off|1|0)\s*$/i;

function refuse(value: Literal, problem: string): never {
  throw new FilterLanguageError('filters', value.position, problem);
}

/** Throws when `value` cannot be a value of `column`'s type. */
export function checkValue(column: Column, value: Literal): void {
  // lower case, as the service reports column types
  const type = column.type.trim().toLowerCase();
  if (NESTED_TYPE.test(type)) refuse(value, `${column.name} is of type ${type}, which compares with no single value; use IS NULL or LIKE`);
  if (NUMBER_TYPE.test(type)) {
    if (NUMBER.test(value.text) || (FLOAT_TYPE.test(type) && FLOAT_WORD.test(value.text))) return;
    refuse(value, `${column.name} holds numbers (${type}); '${value.text}' is not a number`);
  }
  if (TEMPORAL_TYPE.test(type) && !DATE_START.test(value.text)) {
    refuse(value, `${column.name} holds dates (${type}); '${value.text}' is not a date, write one as 2024-01-31 or 2024-01-31 12:00:00`);
  }
  if (BOOLEAN_TYPE.test(type) && !BOOLEAN.test(value.text)) refuse(value, `${column.name} holds true or false (${type}); '${value.text}' is neither`);
}
