// Every type name this module knows, Dune's and DuckDB's own, with what it holds; any other name is
// `unknown` (kept as text).

/**
 * What a column holds, which decides how every layer treats it: how the cache stores it, how a
 * filter's value is checked, how a cell is shown, sorted, summed and exported.
 * - `integer`: up to 64 bits (values past 2^53 travel as text);
 * - `big-integer`: exact integers past 64 bits (uint256, int256, DuckDB's hugeint and bignum);
 * - `nested`: arrays, maps and rows, kept and shown as their JSON text.
 */
export type TypeKind =
  'integer' | 'big-integer' | 'decimal' | 'float' | 'boolean' | 'text' | 'binary' | 'date' | 'timestamp' | 'nested' | 'json' | 'unknown';

export const KINDS: Record<string, TypeKind> = {
  tinyint: 'integer',
  smallint: 'integer',
  integer: 'integer',
  bigint: 'integer',
  utinyint: 'integer',
  usmallint: 'integer',
  uinteger: 'integer',
  ubigint: 'integer',
  hugeint: 'big-integer',
  uhugeint: 'big-integer',
  uint256: 'big-integer',
  int256: 'big-integer',
  bignum: 'big-integer',
  decimal: 'decimal',
  real: 'float',
  double: 'float',
  boolean: 'boolean',
  varchar: 'text',
  char: 'text',
  uuid: 'text',
  enum: 'text',
  time: 'text',
  interval: 'text',
  varbinary: 'binary',
  date: 'date',
  timestamp: 'timestamp',
  array: 'nested',
  map: 'nested',
  row: 'nested',
  union: 'nested',
  json: 'json',
};

/** A table's entry for a name a service wrote: its own entries only, never one of Object's (`constructor`). */
export function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
