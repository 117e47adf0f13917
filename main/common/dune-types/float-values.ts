// Dune's floats. Trino (Dune) writes the doubles that are no number `NaN`, `Infinity` and
// `-Infinity` (as JSON strings in its JSON); DuckDB writes `nan`, `inf` and `-inf`, as older
// embedded services sent them. Every layer reads either spelling and writes Trino's. A `real`
// (DuckDB's FLOAT) is sent as its shortest text (`0.1`), which names a double other than the
// float's binary expansion (0.10000000149011612): that double is its value wherever one is needed.

export const NOT_A_NUMBER = 'NaN';
export const INFINITY = 'Infinity';
export const NEGATIVE_INFINITY = '-Infinity';

const FLOAT_WORD = /^\s*([-+]?)(nan|inf|infinity)\s*$/i;

/** Dune's word for a double that is no number, from either spelling (`nan`, `-inf`, `Infinity`); null for other text. */
export function floatWord(text: string): string | null {
  const match = FLOAT_WORD.exec(text);
  if (!match) return null;
  if (match[2]!.toLowerCase() === 'nan') return NOT_A_NUMBER;
  return match[1] === '-' ? NEGATIVE_INFINITY : INFINITY;
}

/** SQL: Dune's word for a DOUBLE expression that is no number; NULL where it is one. */
export function floatWordSql(double: string): string {
  return `CASE WHEN isnan(${double}) THEN '${NOT_A_NUMBER}' WHEN isinf(${double}) THEN CASE WHEN ${double} > 0 THEN '${INFINITY}' ELSE '${NEGATIVE_INFINITY}' END END`;
}

/** SQL: a DOUBLE expression's text: DuckDB's of a number (`1e-05`, `2.0`), Trino's word for one that is no number. */
export function doubleTextSql(double: string): string {
  return `coalesce(${floatWordSql(double)}, CAST(${double} AS VARCHAR))`;
}

/** SQL: a FLOAT expression as the double its shortest text names (0.1 for the float nearest 0.1). */
export function realDoubleSql(float: string): string {
  return `CAST(CAST(${float} AS VARCHAR) AS DOUBLE)`;
}
