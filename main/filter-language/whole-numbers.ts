import { floorDecimal, integerRange, parseType, readDecimal } from '../common/dune-types/index.ts';
import type { Comparison } from './ast.ts';

// A number compared with a column of whole numbers, exactly. DuckDB's cast would round a fraction
// (`id > 1.5` became `id > 2`) and refuse a number past the column's type (`amount > 1e40` on a
// uint256 kept in 128 bits); both are answered here without a cast: a fraction by the whole number
// below it, a number past the type's range as true or false for every row with a value.

/** Where a number stands against a whole-number type: one of its values, past all of them, or between two. */
export type Place = { kind: 'value'; text: string } | { kind: 'above' } | { kind: 'below' } | { kind: 'between'; floor: string };

/** `text` (a number the filter language took) against the DuckDB integer type `type`. */
export function placeOf(text: string, type: string): Place {
  const { floor, whole } = floorDecimal(readDecimal(text)!);
  const range = integerRange(parseType(type));
  const value = BigInt(floor);
  if (range && value > range[1]) return { kind: 'above' };
  if (range && value < range[0]) return { kind: 'below' };
  return whole ? { kind: 'value', text: floor } : { kind: 'between', floor };
}

const LESS = new Set<Comparison>(['<', '<=']);
const GREATER = new Set<Comparison>(['>', '>=']);
const UNEQUAL = new Set<Comparison>(['!=', '<>']);

/**
 * `column operator value` for a value that is no value of the column's type, with `bind` giving
 * the SQL of a whole number of it (a parameter): `n > 1.5` is `n > 1`, `n <= -1.5` is `n <= -2`,
 * `n = 1.5` holds for no row, and a number past the type's range holds for all or none.
 */
export function compareOutside(
  column: string,
  operator: Comparison,
  place: Exclude<Place, { kind: 'value' }>,
  bind: (text: string) => string,
): string {
  const holdsForAll = `${column} IS NOT NULL`;
  if (operator === '=') return 'FALSE';
  if (UNEQUAL.has(operator)) return holdsForAll;
  if (place.kind === 'above') return LESS.has(operator) ? holdsForAll : 'FALSE';
  if (place.kind === 'below') return GREATER.has(operator) ? holdsForAll : 'FALSE';
  return GREATER.has(operator) ? `${column} > ${bind(place.floor)}` : `${column} <= ${bind(place.floor)}`;
}
