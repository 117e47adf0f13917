import { doubleTextSql, plainDecimalSql, realDoubleSql } from '../../common/dune-types/index.ts';

// How a page's values become the cache's: each column's text (a CSV page's, or the text a Parquet
// page carries) cast to its storage type. A value the type cannot hold is never changed on the
// way, nor dropped: the load stops and names its column (MisfitColumn), and the download goes again
// with that column kept wider (see download.ts): a uint256 past 128 bits as BIGNUM, anything else
// that does not fit its type as the text it came as.

const MISFIT = 'querydesk: a value does not fit the storage type of column ';
const MISFIT_IN_MESSAGE = new RegExp(`${MISFIT}(\\d+)`);
const INTEGER = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|BIGNUM)$/;
const DECIMAL = /^DECIMAL\(\d+,(\d+)\)$/;

/** A value of column `column` (0-based, in the result's order) that its storage type cannot hold. */
export class MisfitColumn extends Error {
  readonly column: number;
  constructor(column: number) {
    super(`a value of column ${column} does not fit its storage type`);
    this.column = column;
  }
}

/** The MisfitColumn a failed load statement stands for, if it is one. */
export function misfitOf(error: unknown): MisfitColumn | null {
  const match = error instanceof Error ? MISFIT_IN_MESSAGE.exec(error.message) : null;
  return match ? new MisfitColumn(Number(match[1])) : null;
}

/**
 * `text` as a DECIMAL(p,s) with every digit, or NULL. DuckDB's cast rounds digits past the scale,
 * and rounds text in exponent form too, or reads none as a DECIMAL(p,p) (`3.1e-05`, how the
 * embedded service writes 0.000031 of one): such text is first made plain digits by the shared
 * rule, none past the scale.
 */
function decimalCast(text: string, type: string, scale: number): string {
  const plainInScale = `strpos(${text}, 'e') + strpos(${text}, 'E') = 0 AND (NOT contains(${text}, '.') OR length(${text}) - strpos(${text}, '.') <= ${scale})`;
  return `CASE WHEN ${plainInScale} THEN TRY_CAST(${text} AS ${type}) ELSE TRY_CAST(${plainDecimalSql(text, scale)} AS ${type}) END`;
}

/**
 * A SELECT expression: `text` (VARCHAR) as a value of `type`, or NULL where it is none. A decimal
 * or an integer is never rounded (an integer's cast would round `1.5`); Dune writes bytes as 0x
 * hex, DuckDB (an older embedded service) as its escaped text of a blob.
 */
export function tryStorageCast(text: string, type: string): string {
  if (type === 'VARCHAR') return text;
  const decimal = DECIMAL.exec(type);
  if (decimal) return decimalCast(text, type, Number(decimal[1]));
  if (type === 'BLOB') return `CASE WHEN starts_with(${text}, '0x') THEN TRY(unhex(substr(${text}, 3))) ELSE TRY_CAST(${text} AS BLOB) END`;
  if (INTEGER.test(type)) return `CASE WHEN contains(${text}, '.') THEN NULL ELSE TRY_CAST(${text} AS ${type}) END`;
  // DuckDB reads text into TIMESTAMPTZ through its time zone library, about 20 times slower than
  // into TIMESTAMP; the services' text is in UTC, which goes through TIMESTAMP as the same instant
  if (type === 'TIMESTAMP WITH TIME ZONE') {
    return `CASE WHEN ends_with(${text}, ' UTC') THEN make_timestamptz(epoch_us(TRY_CAST(${text} AS TIMESTAMP))) ELSE TRY_CAST(${text} AS ${type}) END`;
  }
  return `TRY_CAST(${text} AS ${type})`;
}

/**
 * A SELECT expression casting a page's column `column` (its expression `source`, of the page's
 * type `sourceType`) to its storage type; one that does not fit stops the statement, naming it.
 * A Parquet column the service sent as a value (an integer, a double) is cast as it is, a real as
 * the double its text names, and a float kept as text has the CSV page's text of it.
 */
export function storageCast(source: string, type: string, column: number, sourceType = 'VARCHAR'): string {
  if (sourceType === type) return source;
  if (sourceType === 'FLOAT' || sourceType === 'DOUBLE') {
    const double = sourceType === 'FLOAT' ? realDoubleSql(source) : source;
    return type === 'VARCHAR' ? doubleTextSql(double) : `CAST(${double} AS ${type})`;
  }
  if (sourceType !== 'VARCHAR') return `CAST(${source} AS ${type})`;
  return `coalesce(${tryStorageCast(source, type)}, CASE WHEN ${source} IS NULL THEN NULL ELSE error('${MISFIT}${column}') END)`;
}

/** The type a column is kept as once one of its values did not fit `type`. */
export function widerStorage(type: string): string {
  return type === 'UHUGEINT' || type === 'HUGEINT' ? 'BIGNUM' : 'VARCHAR';
}
