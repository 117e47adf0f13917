import { timestampDigits } from './timestamp-text.ts';
import type { DuneType } from './type-name.ts';

// How the app's cache keeps a column, in DuckDB: exactly, and so that it sorts and compares as
// what it is. uint256 and int256 are first kept in DuckDB's 128-bit integers, which hold nearly
// every token amount and are several times faster to load, sort and profile than BIGNUM (its
// arbitrary precision); a column with a value past 128 bits is kept as BIGNUM instead (the cache
// widens it when it meets one). Varbinary is kept as bytes. A real is kept as the double its text
// names (0.1, as Dune sends it, not the float's 0.10000000149011612). Nested values and JSON are
// kept as their JSON text, not flattened.

const SAME_NAME = new Set([
  'boolean',
  'tinyint',
  'smallint',
  'integer',
  'bigint',
  'utinyint',
  'usmallint',
  'uinteger',
  'ubigint',
  'hugeint',
  'uhugeint',
  'double',
  'date',
  'uuid',
]);

// DuckDB's DECIMAL holds up to 38 digits.
const MAX_DECIMAL_DIGITS = 38;
// DuckDB's timestamps keep microseconds, or nanoseconds in TIMESTAMP_NS.
const MICROSECONDS = 6;
const NANOSECONDS = 9;

/** The DuckDB type a column of this type is stored as in the cache. */
export function storageType(type: DuneType): string {
  if (SAME_NAME.has(type.name)) return type.name.toUpperCase();
  switch (type.name) {
    case 'uint256':
      return 'UHUGEINT';
    case 'int256':
      return 'HUGEINT';
    case 'bignum':
      return 'BIGNUM';
    case 'real':
      return 'DOUBLE';
    case 'varbinary':
      return 'BLOB';
    case 'decimal':
      return decimalStorage(type.params);
    case 'timestamp':
      return timestampStorage(type);
    default:
      return 'VARCHAR';
  }
}

function decimalStorage(params: number[]): string {
  const [precision = MAX_DECIMAL_DIGITS, scale = 0] = params;
  if (precision >= 1 && precision <= MAX_DECIMAL_DIGITS && scale >= 0 && scale <= precision) return `DECIMAL(${precision},${scale})`;
  // wider than DuckDB's DECIMAL: an integer stays exact as BIGNUM, a fraction as its text
  return scale === 0 ? 'BIGNUM' : 'VARCHAR';
}

function timestampStorage(type: DuneType): string {
  const precision = timestampDigits(type);
  if (type.withTimeZone) return precision <= MICROSECONDS ? 'TIMESTAMP WITH TIME ZONE' : 'VARCHAR';
  if (precision <= MICROSECONDS) return 'TIMESTAMP';
  return precision <= NANOSECONDS ? 'TIMESTAMP_NS' : 'VARCHAR';
}
