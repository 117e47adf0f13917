import type { DuneType } from './type-name.ts';

/**
 * What a column holds, which decides how every layer treats it: how the cache stores it, how a
 * filter's value is checked, how a cell is shown, sorted, summed and exported.
 * - `integer`: up to 64 bits (values past 2^53 travel as text);
 * - `big-integer`: exact integers past 64 bits (uint256, int256, DuckDB's hugeint and bignum);
 * - `nested`: arrays, maps and rows, kept and shown as their JSON text.
 */
export type TypeKind =
  | 'integer'
  | 'big-integer'
  | 'decimal'
  | 'float'
  | 'boolean'
  | 'text'
  | 'binary'
  | 'date'
  | 'timestamp'
  | 'nested'
  | 'json'
  | 'unknown';

const KINDS: Record<string, TypeKind> = {
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

export function kindOf(type: DuneType): TypeKind {
  return KINDS[type.name] ?? 'unknown';
}

/** Kinds whose values are numbers: they sort, compare, sum and chart as numbers. */
export function isNumeric(kind: TypeKind): boolean {
  return kind === 'integer' || kind === 'big-integer' || kind === 'decimal' || kind === 'float';
}

/** Kinds that hold no single comparable value: they filter by IS NULL or LIKE only. */
export function isStructured(kind: TypeKind): boolean {
  return kind === 'nested' || kind === 'json';
}

// The smallest and largest value of each integer type with fixed bounds.
const INTEGER_RANGES: Record<string, readonly [bigint, bigint]> = {
  tinyint: [-(2n ** 7n), 2n ** 7n - 1n],
  smallint: [-(2n ** 15n), 2n ** 15n - 1n],
  integer: [-(2n ** 31n), 2n ** 31n - 1n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
  utinyint: [0n, 2n ** 8n - 1n],
  usmallint: [0n, 2n ** 16n - 1n],
  uinteger: [0n, 2n ** 32n - 1n],
  ubigint: [0n, 2n ** 64n - 1n],
  hugeint: [-(2n ** 127n), 2n ** 127n - 1n],
  uhugeint: [0n, 2n ** 128n - 1n],
  int256: [-(2n ** 255n), 2n ** 255n - 1n],
  uint256: [0n, 2n ** 256n - 1n],
};

/** The bounds of an integer type, or null for a type without fixed ones (bignum, non-integers). */
export function integerRange(type: DuneType): readonly [bigint, bigint] | null {
  return INTEGER_RANGES[type.name] ?? null;
}
