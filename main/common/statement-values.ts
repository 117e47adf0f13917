/**
 * The values to run a statement with, or none: DuckDB's client prepares a statement (and destroys
 * it after) whenever it is given values, even an empty list, which took the main thread longer
 * than the rest of a short read.
 */
export function valuesOf<T>(params: T[]): T[] | undefined {
  return params.length > 0 ? params : undefined;
}
