// Two rules of how Dune's values are written, as SQL for the layers that have DuckDB write them
// (the service's pages, the app's cache and exports, the filters on bytes): bytes are `0x` and
// lower-case hex (as binaryText reads them), and an integer is a JSON number only where a double
// holds it exactly, past that a string of its digits (as numberCell reads it).

const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const WIDE_INTEGER = /^(BIGINT|HUGEINT|BIGNUM|DECIMAL\(\d+,0\))$/;
const WIDE_UNSIGNED = /^(UBIGINT|UHUGEINT)$/;

/** SQL: the text of a BLOB expression as Dune sends bytes, `0x` and lower-case hex. */
export function binaryTextSql(expression: string): string {
  return `('0x' || lower(hex(${expression})))`;
}

/**
 * SQL: for a column of DuckDB's integer type `type` that may hold values past 2^53, the condition
 * under which a value is one a double holds exactly; null for a type whose values all are.
 */
export function exactIntegerSql(expression: string, type: string): string | null {
  if (WIDE_INTEGER.test(type)) return `${expression} BETWEEN -${MAX_EXACT} AND ${MAX_EXACT}`;
  // never compared with a negative bound, which a UHUGEINT past 2^127 cannot be compared with
  return WIDE_UNSIGNED.test(type) ? `${expression} <= ${MAX_EXACT}` : null;
}
