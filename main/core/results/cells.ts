import type { CellValue } from '../../contract/index.ts';

/** A JSON value as a grid cell: nested values (lists, structs) are shown as their JSON text. */
export function toCell(value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
