import { numberText } from '../../common/dune-types/index.ts';
import type { CellValue } from '../../contract/index.ts';

/**
 * A JSON value as a grid cell: a number no double holds as its digits, nested values (lists,
 * rows) as their JSON text, each number in them as the service wrote it (see parseJsonExact).
 */
export function toCell(value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return numberText(value) ?? JSON.stringify(value);
}
