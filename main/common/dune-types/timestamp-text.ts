import type { DuneType } from './type-name.ts';

// A timestamp's text, as Trino (Dune) writes it: `YYYY-MM-DD HH:MM:SS`, then as many digits after
// the second as its type's precision (timestamp(6): `.123456`; timestamp(0): none). A timestamp
// named without one (DuckDB's TIMESTAMP) holds microseconds. The SQL writes the same text from
// DuckDB's timestamps, for the layers that have DuckDB write it (the service's pages, the cache).

const MICROSECONDS = 6;

/** How many digits after the second a timestamp of this type is written with. */
export function timestampDigits(type: DuneType): number {
  return type.params[0] ?? MICROSECONDS;
}

// strftime's own fractions: milliseconds, microseconds. Its nanoseconds (%n) are cut from their
// own text: DuckDB writes %n wrong when more of the format follows it.
const FRACTIONS: Record<number, string> = { 0: '', 3: '.%g', 6: '.%f' };

/**
 * SQL: the text of a timestamp expression of DuckDB's type `type`, in the connection's time zone,
 * with `digits` after the second, then `suffix` (` UTC`); an infinite one as DuckDB writes it.
 */
export function timestampTextSql(expression: string, type: string, digits: number, suffix = ''): string {
  // TIMESTAMP holds microseconds; TIMESTAMP_NS is read as it is, as a cast to TIMESTAMP may round
  const timestamp = type === 'TIMESTAMP_NS' ? expression : `CAST(${expression} AS TIMESTAMP)`;
  const fraction = FRACTIONS[digits];
  const text =
    fraction === undefined
      ? `strftime(${timestamp}, '%Y-%m-%d %H:%M:%S.') || left(strftime(${timestamp}, '%n'), ${digits})${suffix ? ` || '${suffix}'` : ''}`
      : `strftime(${timestamp}, '%Y-%m-%d %H:%M:%S${fraction}${suffix}')`;
  return `CASE WHEN isfinite(${expression}) THEN ${text} ELSE CAST(${expression} AS VARCHAR) END`;
}
