import { floorDecimal, integerRange, parseType, readDecimal } from '../common/dune-types/index.ts';
import type { Comparison } from './ast.ts';

// A number compared with a column of whole numbers or of decimals, exactly. DuckDB's cast would
// round a number with more digits after the point than the column keeps (`id > 1.5` became
// `id > 2`, and `fee > 0.125` on a DECIMAL(10,2) became `fee > 0.13`, leaving out a fee of
// 0.13), and refuse one past the column's type (`amount > 1e40` on a uint256 kept in 128 bits);
// both are answered here without a cast: a number between two of the column's values by the lower
// one, a number past the type's range as true or false for every row with a value.

/** Where a number stands against a column's type: one of its values, past all of them, or between two. */
export type Place = { kind: 'value'; text: string } | { kind: 'above' } | { kind: 'below' } | { kind: 'between'; floor: string };

/** DuckDB's precision and scale of a DECIMAL written without them. */
const DEFAULT_DECIMAL = [18, 3];

/** The digits a type keeps after the point, and its values' bounds counted in units of its last digit (none for BIGNUM). */
function unitsOf(type: string): { scale: number; range: readonly [bigint, bigint] | null } {
  const parsed = parseType(type);
  if (parsed.name !== 'decimal') return { scale: 0, range: integerRange(parsed) };
  const [precision = DEFAULT_DECIMAL[0]!, scale = DEFAULT_DECIMAL[1]!] = parsed.params;
  const largest = 10n ** BigInt(precision) - 1n;
  return { scale, range: [-largest, largest] };
}

/** A count of units of the type's last digit as the number it is: 500001 at scale 2 is `5000.01`. */
function unitsText(units: bigint, scale: number): string {
  if (scale === 0) return String(units);
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return `${units < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * `text` (a number the filter language took, see value-types.ts) against the DuckDB type `type`:
 * an integer type, or a DECIMAL.
 */
export function placeOf(text: string, type: string): Place {
  const { scale, range } = unitsOf(type);
  const { floor, whole } = floorDecimal(readDecimal(text, scale)!);
  const units = BigInt(floor);
  if (range && units > range[1]) return { kind: 'above' };
  if (range && units < range[0]) return { kind: 'below' };
  return whole ? { kind: 'value', text: unitsText(units, scale) } : { kind: 'between', floor: unitsText(units, scale) };
}

const LESS = new Set<Comparison>(['<', '<=']);
const GREATER = new Set<Comparison>(['>', '>=']);
const UNEQUAL = new Set<Comparison>(['!=', '<>']);

/**
 * `column operator value` for a value that is no value of the column's type, with `bind` giving
 * the SQL of one of its values (a parameter): `n > 1.5` is `n > 1`, `n <= -1.5` is `n <= -2`,
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
