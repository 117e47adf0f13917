import type { CellValue } from '$contract/index.ts';
import {
  compareDecimal,
  floatWord,
  INFINITY,
  isNumeric,
  NEGATIVE_INFINITY,
  NOT_A_NUMBER,
  readDecimal,
  type TypeKind,
} from '../../../../main/common/dune-types/index.ts';

// How a grid that holds all its rows (a sample) orders them itself, as the cache and the service
// order a result: numbers by their exact value (uint256 digits past a double, decimal(38,18)),
// other values by their text, nulls last whichever the direction.

type Comparator = (a: CellValue | undefined, b: CellValue | undefined, nodeA: unknown, nodeB: unknown, descending: boolean) => number;

// DuckDB orders the floats' specials around every number, NaN above infinity
const SPECIALS: Record<string, number> = { [NEGATIVE_INFINITY]: -1, [INFINITY]: 1, [NOT_A_NUMBER]: 2 };

/** A value that is no number's place around the numbers, in either spelling (`-inf`, `-Infinity`). */
function specialOrder(value: CellValue): number {
  return SPECIALS[floatWord(String(value)) ?? ''] ?? 0;
}

function numberOrder(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b)) return a - b;
  const [left, right] = [readDecimal(String(a)), readDecimal(String(b))];
  if (left && right) return compareDecimal(left, right);
  return (left ? 0 : specialOrder(a)) - (right ? 0 : specialOrder(b));
}

function textOrder(a: CellValue, b: CellValue): number {
  const [left, right] = [String(a), String(b)];
  return left === right ? 0 : left < right ? -1 : 1;
}

/** The order of a column's cells, for AG Grid's `comparator` (which reverses it when descending). */
export function cellComparator(kind: TypeKind): Comparator {
  const order = isNumeric(kind) ? numberOrder : textOrder;
  return (a, b, _nodeA, _nodeB, descending) => {
    const [left, right] = [a ?? null, b ?? null];
    if (left === null || right === null) return left === right ? 0 : (left === null ? 1 : -1) * (descending ? -1 : 1);
    return order(left, right);
  };
}
