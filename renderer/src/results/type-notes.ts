import { formatCount, plural } from '../lib/format.ts';
import { columnKind } from './grid/cell-format.ts';
import type { ViewColumn } from './grid/view-language.ts';

// What the result's footer says about its types: columns of a type the app cannot read (kept
// and shown as text), and values that do not fit their column's declared type (kept as received).

export interface TypeNote {
  text: string;
  /** The columns concerned, for the hover. */
  title: string;
}

/** `notFitting`: per column in the result's order, as the cache counted them (absent before). */
export function typeNotes(
  columns: ViewColumn[],
  notFitting: readonly number[] | undefined,
): { unknown: TypeNote | null; notFitting: TypeNote | null } {
  const unknown = columns.filter((c) => columnKind(c.type) === 'unknown');
  const misfits = columns.map((c) => ({ column: c, count: notFitting?.[c.index] ?? 0 })).filter((m) => m.count > 0);
  const total = misfits.reduce((sum, m) => sum + m.count, 0);
  return {
    unknown:
      unknown.length === 0
        ? null
        : {
            text: `${unknown.length === 1 ? '1 column' : `${formatCount(unknown.length)} columns`} of an unknown type, kept as text`,
            title: unknown.map((c) => `${c.name} (${c.type})`).join(', '),
          },
    notFitting:
      total === 0
        ? null
        : {
            text: `${total === 1 ? '1 value does' : `${formatCount(total)} values do`} not fit ${misfits.length === 1 ? 'its column’s type' : 'their columns’ types'}, shown as received`,
            title: misfits.map((m) => `${m.column.name} (${m.column.type}): ${plural(m.count, 'value', 'values')}`).join(', '),
          },
  };
}
