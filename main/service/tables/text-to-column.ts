import { quoteLiteral } from '../../common/sql-quote.ts';
import { listedColumnType } from './table-input.ts';

// How the text of an inserted or uploaded value becomes a value of its column's type: exactly, or
// not at all. DuckDB's own casts round (`1.5` into an integer is 2), read `0xdeadbeef` into bytes
// as its ASCII, drop a timestamp's offset and a date's time of day; so each type's text is checked
// against the forms Dune takes (notes §9: varbinary as 0x-hex or base64, timestamps in ISO 8601)
// before it is cast, and a value that cannot be held as written is refused with the reason.

/** SQL for a text expression that is not NULL, read into one column type. */
export interface TextReading {
  /** Whether the text is a value of the type exactly as written. */
  accepts: string;
  /** The value, where `accepts`. */
  value: string;
  /** Why not, as VARCHAR, where not `accepts`. */
  reason: string;
}

const INTEGER_TYPES = new Set([
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'HUGEINT',
  'UTINYINT',
  'USMALLINT',
  'UINTEGER',
  'UBIGINT',
  'UHUGEINT',
  'BIGNUM',
]);

// A whole number, maybe written with a fraction of zeros (`3.0`, as some JSON writers do)
const WHOLE = '[-+]?[0-9]+(\\.0*)?';
const NUMBER = '[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?';
const DATE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
// to the microsecond, which TIMESTAMP holds: a finer fraction would be cut
const CLOCK = '[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6}0*)?)?';
const ZONE = ' ?(Z|UTC|[+-][0-9]{2}(:?[0-9]{2})?)';
const TIMESTAMP = `${DATE}(${CLOCK}(${ZONE})?)?`;
const HEX = '0[xX]([0-9a-fA-F]{2})*';
const BASE64 = '([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?';

const matches = (text: string, pattern: string) => `regexp_full_match(${text}, ${quoteLiteral(pattern)})`;

/**
 * SQL: a number's text in one form, `-123e-4` for -0.0123, so that two texts of the same number
 * are equal: its digits without the zeros at either end, and the power of ten they are scaled by.
 */
function numberKey(text: string): string {
  const parts = `regexp_extract(${text}, '^([-+]?)([0-9]*)\\.?([0-9]*)(?:[eE]([-+]?[0-9]+))?$', ['sign', 'whole', 'fraction', 'power'])`;
  const digits = `ltrim(p.whole || p.fraction, '0')`;
  const key = `CASE WHEN core = '' THEN '0' ELSE CASE WHEN p.sign = '-' THEN '-' ELSE '' END || core || 'e' || (coalesce(TRY_CAST(p.power AS BIGINT), 0) - length(p.fraction) + length(${digits}) - length(core)) END`;
  return `list_transform([${parts}], p -> list_transform([rtrim(${digits}, '0')], core -> ${key})[1])[1]`;
}

/** SQL: `first AND then`, `then` read only where `first` holds (DuckDB's AND reads both for every row, CASE does not). */
const both = (first: string, then: string) => `CASE WHEN ${first} THEN ${then} ELSE false END`;

/** SQL: the shortest text of the double a text names, as DuckDB writes it (`0.1`, `42000.0`, `1e-07`). */
const shortestDouble = (text: string) => `CAST(TRY_CAST(${text} AS DOUBLE) AS VARCHAR)`;

function integerReading(text: string, type: string): TextReading {
  const digits = `split_part(${text}, '.', 1)`;
  return {
    accepts: both(matches(text, WHOLE), `TRY_CAST(${digits} AS ${type}) IS NOT NULL`),
    value: `CAST(${digits} AS ${type})`,
    reason: `CASE WHEN ${matches(text, WHOLE)} THEN ${quoteLiteral(`it is outside the range of ${listedColumnType(type)}`)} ELSE 'it is not a whole number' END`,
  };
}

function doubleReading(text: string): TextReading {
  const double = `TRY_CAST(${text} AS DOUBLE)`;
  // DuckDB's own text of a double (most values) is one at once; another number's is when the
  // double's shortest text is the same number; a word for no number (NaN, Infinity) as DuckDB reads
  // it. A CASE, as the rest is slow (see both).
  const exact = `isfinite(${double}) AND ${numberKey(shortestDouble(text))} = ${numberKey(text)}`;
  return {
    accepts: `CASE WHEN ${shortestDouble(text)} = ${text} THEN true WHEN ${matches(text, NUMBER)} THEN ${exact} ELSE coalesce(isnan(${double}) OR isinf(${double}), false) END`,
    value: `CAST(${text} AS DOUBLE)`,
    reason: `CASE WHEN ${matches(text, NUMBER)} THEN 'a double cannot hold it exactly' ELSE 'it is not a number' END`,
  };
}

function timestampReading(text: string): TextReading {
  // an offset is honoured: the instant is kept, in UTC, as TIMESTAMP's values are
  const reading = (cast: string) =>
    `CASE WHEN ${matches(text, `${DATE}${CLOCK}${ZONE}`)} THEN timezone('UTC', ${cast}(${text} AS TIMESTAMPTZ)) ELSE ${cast}(${text} AS TIMESTAMP) END`;
  return {
    accepts: both(matches(text, TIMESTAMP), `${reading('TRY_CAST')} IS NOT NULL`),
    value: reading('CAST'),
    reason: `CASE WHEN ${matches(text, TIMESTAMP)} THEN 'no such date and time exists' ELSE 'it is not an ISO 8601 timestamp to the microsecond' END`,
  };
}

function dateReading(text: string): TextReading {
  return {
    accepts: both(matches(text, DATE), `TRY_CAST(${text} AS DATE) IS NOT NULL`),
    value: `CAST(${text} AS DATE)`,
    reason: `CASE WHEN ${matches(text, DATE)} THEN 'no such date exists' WHEN ${matches(text, `${DATE}${CLOCK}(${ZONE})?`)} THEN 'a date has no time of day' ELSE 'it is not a date (YYYY-MM-DD)' END`,
  };
}

function binaryReading(text: string): TextReading {
  return {
    accepts: `CASE WHEN ${matches(text, HEX)} THEN true ELSE ${matches(text, BASE64)} END`,
    value: `CASE WHEN ${matches(text, HEX)} THEN from_hex(substr(${text}, 3)) ELSE from_base64(${text}) END`,
    reason: `'it is neither 0x-hex nor base64'`,
  };
}

/** SQL reading a text expression (not NULL) into DuckDB's type `type`. */
export function readText(text: string, type: string): TextReading {
  if (INTEGER_TYPES.has(type)) return integerReading(text, type);
  switch (type) {
    case 'VARCHAR':
      return { accepts: 'true', value: text, reason: 'NULL' };
    case 'DOUBLE':
      return doubleReading(text);
    case 'BOOLEAN':
      return { accepts: `lower(${text}) IN ('true', 'false')`, value: `lower(${text}) = 'true'`, reason: `'it is neither true nor false'` };
    case 'TIMESTAMP':
      return timestampReading(text);
    case 'DATE':
      return dateReading(text);
    case 'BLOB':
      return binaryReading(text);
    default:
      // a type no table is made with today: its own cast, where its text reads back the same
      return {
        accepts: `coalesce(CAST(TRY_CAST(${text} AS ${type}) AS VARCHAR) = ${text}, false)`,
        value: `CAST(${text} AS ${type})`,
        reason: quoteLiteral(`it cannot be read as ${listedColumnType(type)} exactly`),
      };
  }
}
