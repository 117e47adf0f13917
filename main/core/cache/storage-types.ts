import type { CellValue } from '../../contract/index.ts';
import { quoteName, type Column } from '../../filter-language/index.ts';

// How a result's columns are kept in the cache. The service names its column types (DuckDB's
// names from the embedded service, Trino's from the real one); a name becomes part of a CREATE
// TABLE, so only types on this list are taken as they are and anything else is kept as text.
// Cells are read back in the shape the service's JSON gives them, so a grid page from the cache
// equals the same page from the service.

const SIMPLE_TYPES: Record<string, string> = {
  BOOLEAN: 'BOOLEAN',
  TINYINT: 'TINYINT',
  SMALLINT: 'SMALLINT',
  INTEGER: 'INTEGER',
  INT: 'INTEGER',
  BIGINT: 'BIGINT',
  HUGEINT: 'HUGEINT',
  UTINYINT: 'UTINYINT',
  USMALLINT: 'USMALLINT',
  UINTEGER: 'UINTEGER',
  UBIGINT: 'UBIGINT',
  UHUGEINT: 'UHUGEINT',
  FLOAT: 'FLOAT',
  REAL: 'FLOAT',
  DOUBLE: 'DOUBLE',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
  TIMESTAMP_S: 'TIMESTAMP_S',
  TIMESTAMP_MS: 'TIMESTAMP_MS',
  TIMESTAMP_NS: 'TIMESTAMP_NS',
  'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP WITH TIME ZONE',
  TIMESTAMPTZ: 'TIMESTAMP WITH TIME ZONE',
  VARCHAR: 'VARCHAR',
  UUID: 'UUID',
};

/** The DuckDB type a column is stored with, from the type name the service gave (or none). */
export function storageType(wireType: string | undefined): string {
  const name = (wireType ?? '').trim().toUpperCase().replace(/\s+/g, ' ');
  const simple = SIMPLE_TYPES[name];
  if (simple) return simple;
  // Trino spells precision into its timestamps: timestamp(3), timestamp(3) with time zone
  const timestamp = /^TIMESTAMP\(\d\)( WITH TIME ZONE)?$/.exec(name);
  if (timestamp) return timestamp[1] ? 'TIMESTAMP WITH TIME ZONE' : 'TIMESTAMP';
  const decimal = /^DECIMAL\((\d{1,2}), ?(\d{1,2})\)$/.exec(name);
  if (decimal && Number(decimal[1]) <= 38 && Number(decimal[2]) <= Number(decimal[1])) return `DECIMAL(${decimal[1]},${decimal[2]})`;
  return 'VARCHAR';
}

/**
 * A SELECT expression casting a page's column (`source`: text from a CSV page, or a Parquet
 * column) to its storage type. DuckDB reads no text in exponent form, such as its own text of a
 * small double (`3.1e-05`, which is how the service writes 0.000031 of a decimal column), as a
 * DECIMAL whose digits are all fractional, DECIMAL(p,p): such text goes through DOUBLE, and the
 * rest is read exactly as before.
 */
export function storageCast(source: string, type: string): string {
  if (/^DECIMAL\((\d+),\1\)$/.test(type)) return `coalesce(TRY_CAST(${source} AS ${type}), CAST(CAST(${source} AS DOUBLE) AS ${type}))`;
  return `CAST(${source} AS ${type})`;
}

const NUMBER_TYPE = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL\(.*\))$/;

/** Whether a storage type (see storageType) holds numbers. */
export function isNumberType(type: string): boolean {
  return NUMBER_TYPE.test(type);
}

/**
 * A SELECT expression giving a column's cells as the service's JSON has them: timestamps as
 * `YYYY-MM-DD HH:MM:SS.mmm UTC`, decimals as numbers (exact integers when they have no scale),
 * other non-numeric types as their text.
 */
export function cellExpression(column: Column): string {
  const name = quoteName(column.name);
  const type = column.type;
  if (type.startsWith('TIMESTAMP')) return timestampText(name);
  const decimal = /^DECIMAL\(\d+,(\d+)\)$/.exec(type);
  if (decimal) return decimal[1] === '0' ? `CAST(${name} AS HUGEINT)` : `CAST(${name} AS DOUBLE)`;
  if (/^(BOOLEAN|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|VARCHAR)$/.test(type)) return name;
  return `CAST(${name} AS VARCHAR)`;
}

/**
 * A SELECT expression giving a column's value for DuckDB's CSV writer such that the file reads as
 * the service's CSV: timestamps as the service writes them, fractions as doubles (2.0 keeps its
 * `.0`), and an empty text as empty, like a null (DuckDB would write it as `""`).
 */
export function csvValueExpression(column: Column): string {
  const name = quoteName(column.name);
  if (column.type.startsWith('TIMESTAMP')) return timestampText(name);
  if (/^(DECIMAL\(\d+,[1-9]\d*\)|FLOAT|DOUBLE)$/.test(column.type)) return `CAST(${name} AS DOUBLE)`;
  if (column.type === 'VARCHAR') return `nullif(${name}, '')`;
  return name;
}

/** A timestamp expression as the service writes timestamps. */
export function timestampText(expression: string): string {
  return `strftime(CAST(${expression} AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.%g UTC')`;
}

/** A value read through `cellExpression`: integers beyond 2^53 become strings, as the service sends them. */
export function toCacheCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}
