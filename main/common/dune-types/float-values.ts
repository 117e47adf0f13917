// Dune's floats. A `real` (DuckDB's FLOAT) is sent as its shortest text (`0.1`), which names a
// double other than the float's binary expansion (0.10000000149011612): that double is its value
// wherever one is needed.

/** SQL: a FLOAT expression as the double its shortest text names (0.1 for the float nearest 0.1). */
export function realDoubleSql(float: string): string {
  return `CAST(CAST(${float} AS VARCHAR) AS DOUBLE)`;
}
