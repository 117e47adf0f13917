import { KINDS, own, type TypeKind } from './kinds.ts';
import type { DuneType } from './type-name.ts';

export type { TypeKind } from './kinds.ts';

export function kindOf(type: DuneType): TypeKind {
  return own(KINDS, type.name) ?? 'unknown';
}

/** Kinds whose values are numbers: they sort, compare, sum and chart as numbers. */
export function isNumeric(kind: TypeKind): boolean {
  return kind === 'integer' || kind === 'big-integer' || kind === 'decimal' || kind === 'float';
}

/** Kinds that hold no single comparable value: they filter by IS NULL or LIKE only. */
export function isStructured(kind: TypeKind): boolean {
  return kind === 'nested' || kind === 'json';
}

// The smallest and largest value of each integer type with fixed bounds.
const INTEGER_RANGES: Record<string, readonly [bigint, bigint]> = {
  tinyint: [-(2n ** 7n), 2n ** 7n - 1n],
  smallint: [-(2n ** 15n), 2n ** 15n - 1n],
  integer: [-(2n ** 31n), 2n ** 31n - 1n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
  utinyint: [0n, 2n ** 8n - 1n],
  usmallint: [0n, 2n ** 16n - 1n],
  uinteger: [0n, 2n ** 32n - 1n],
  ubigint: [0n, 2n ** 64n - 1n],
  hugeint: [-(2n ** 127n), 2n ** 127n - 1n],
  uhugeint: [0n, 2n ** 128n - 1n],
  int256: [-(2n ** 255n), 2n ** 255n - 1n],
  uint256: [0n, 2n ** 256n - 1n],
};

/** The bounds of an integer type, or null for a type without fixed ones (bignum, non-integers). */
export function integerRange(type: DuneType): readonly [bigint, bigint] | null {
  return own(INTEGER_RANGES, type.name) ?? null;
}
