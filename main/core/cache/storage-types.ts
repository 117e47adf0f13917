import {
  binaryTextSql,
  isNumeric,
  isStructured,
  kindOf,
  nestedTextSql,
  numberCell,
  parseType,
  realDoubleSql,
  storageType as duneStorageType,
  timestampDigits,
  timestampTextSql,
} from '../../common/dune-types/index.ts';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import type { CellValue } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';

// How a result's columns are kept in the cache. The service names its column types (Dune's names
// from the hosted service, DuckDB's from the embedded one); the shared type module says which
// DuckDB type keeps each exactly (anything it cannot read is kept as text). Cells are read back in
// the shape the service's JSON gives them, so a grid page from the cache equals the same page
// from the service: bytes as `0x` hex, integers past 2^53 as their digits, timestamps with their
// type's digits, a double that is no number as Dune's word for it.

/** The DuckDB type a column is stored with, from the type name the service gave (or none). */
export function storageType(wireType: string | undefined): string {
  return duneStorageType(parseType(wireType ?? ''));
}

// DuckDB bit-packs 128-bit integers (and decimals past 18 digits, which it holds in them) at a
// checkpoint, and unpacking them made every scan of such a column (filter, sort, profile) several
// times slower than the same scan of a 64-bit one; kept whole (16 bytes a value on disk), they
// read about as fast as packed 64-bit values.
const UNPACKED = /^(U?HUGEINT|DECIMAL\((19|[2-3]\d),\d+\))$/;

/** A column's definition in a cached result's CREATE TABLE. */
export function columnDefinition(column: Column): string {
  const compression = UNPACKED.test(column.type) ? ' USING COMPRESSION uncompressed' : '';
  return `${quoteIdentifier(column.name)} ${column.type}${compression}`;
}

/** Whether a storage type (see storageType) holds numbers. */
export function isNumberType(type: string): boolean {
  return isNumeric(kindOf(parseType(type)));
}

/**
 * A SELECT expression giving a column's cells as the service's JSON has them: timestamps as
 * `YYYY-MM-DD HH:MM:SS.mmm UTC` (as many digits as the type has), decimals as numbers (their exact
 * text past a double), bytes as `0x` hex, a real as the double its text names (see cachedValue),
 * nested values as a JSON page's cell of them (a CSV page may space them out), other non-numeric
 * types as their text.
 */
export function cellExpression(column: Column): string {
  const name = quoteIdentifier(column.name);
  const type = column.type;
  if (type.startsWith('TIMESTAMP')) return timestampText(column);
  if (type === 'BLOB') return binaryTextSql(name);
  if (type === 'FLOAT') return cachedValue(column);
  // a fraction as DuckDB's exact value, made a cell by toCacheCell
  const decimal = /^DECIMAL\(\d+,(\d+)\)$/.exec(type);
  if (decimal) return decimal[1] === '0' ? `CAST(${name} AS HUGEINT)` : name;
  if (type === 'VARCHAR' && isStructured(kindOf(parseType(column.duneType ?? '')))) return nestedTextSql(name);
  if (/^(BOOLEAN|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|BIGNUM|DOUBLE|VARCHAR)$/.test(type)) return name;
  return `CAST(${name} AS VARCHAR)`;
}

/**
 * A column's values (or `expression` of them) as what they are: a real as the double its text
 * names, also where a cache written before reals were kept as doubles holds it as FLOAT.
 */
export function cachedValue(column: Column, expression = quoteIdentifier(column.name)): string {
  return column.type === 'FLOAT' ? realDoubleSql(expression) : expression;
}

/**
 * A timestamp column's value (or `expression` of its values) as the service writes its type's
 * timestamps: in UTC (the connection's time zone), with the digits after the second its type
 * has, then `suffix`.
 */
export function timestampText(column: Column, expression = quoteIdentifier(column.name), suffix = ' UTC'): string {
  const named = parseType(column.duneType ?? '');
  const digits = timestampDigits(kindOf(named) === 'timestamp' ? named : parseType(column.type));
  return timestampTextSql(expression, column.type, digits, suffix);
}

/**
 * A value read through `cellExpression`, as the service's JSON gives it: integers beyond 2^53
 * and decimals with more digits than a double holds as their exact text, a double that is no
 * number as Dune's word for it (JavaScript's, `NaN`, `-Infinity`: JSON has no such number).
 */
export function toCacheCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return numberCell(value.toString());
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (isDecimalValue(value)) return numberCell(value.toString());
  return String(value);
}

/**
 * DuckDB's DECIMAL value (its DuckDBDecimalValue), known by its fields rather than its class: core
 * loads DuckDB's module only when the cache opens, after the hosts' first screen.
 */
function isDecimalValue(value: unknown): value is { toString(): string } {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as { value?: unknown; width?: unknown; scale?: unknown };
  return typeof fields.value === 'bigint' && typeof fields.width === 'number' && typeof fields.scale === 'number';
}
