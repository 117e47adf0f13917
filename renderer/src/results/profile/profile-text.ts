import type { CellValue, ColumnProfile } from '$contract/index.ts';
import { formatCount } from '../../lib/format.ts';
import { cellFormat, type NumberStyle } from '../grid/cell-format.ts';

// How a profile's figures read: values as the grid writes them, bin edges short enough for a label.

const EDGE_NUMBER = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 4 });

/** A value of the profiled column (min, max, a quartile, a top value) as its cells read. */
export function valueText(profile: ColumnProfile, value: CellValue, style: NumberStyle): string {
  return cellFormat(profile.type, style)(value);
}

/**
 * A mean or quartile of a number column: a double whatever the column's type, worked out rather than
 * read, so four decimals are kept (296601.49666666664 reads 296601.4967).
 */
export function quartileText(profile: ColumnProfile, value: CellValue, style: NumberStyle): string {
  if (profile.kind !== 'number') return valueText(profile, value, style);
  const rounded = typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e15 ? Math.round(value * 1e4) / 1e4 : value;
  return cellFormat('DOUBLE', style)(rounded);
}

/** A histogram edge: a number kept to four digits, a time (epoch milliseconds) to the minute in UTC. */
export function edgeText(kind: ColumnProfile['kind'], edge: number): string {
  if (kind !== 'time') return EDGE_NUMBER.format(edge);
  const iso = new Date(edge).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * An end of the histogram's axis: a number column's own min or max as its cells read (an edge
 * rounded to four digits could pass the column's max), a time's edge to the minute.
 */
export function axisEnd(profile: ColumnProfile, end: 'min' | 'max', style: NumberStyle): string {
  if (profile.kind === 'number') return valueText(profile, profile[end], style);
  const bins = profile.histogram;
  return edgeText(profile.kind, end === 'min' ? bins[0]!.from : bins.at(-1)!.to);
}

/** The distinct count: exact, or "≈" with its margin at 95%. */
export function distinctText(distinct: ColumnProfile['distinct']): string {
  if (distinct.exact) return formatCount(distinct.count);
  const margin = distinct.error === undefined ? '' : ` (±${(distinct.error * 100).toFixed(1)}%)`;
  return `≈ ${formatCount(distinct.count)}${margin}`;
}

/** "12.5%" of the rows profiled; "0%" of none. */
export function share(count: number, of: number): string {
  if (of === 0) return '0%';
  const percent = (count / of) * 100;
  return `${percent < 10 && percent > 0 ? percent.toFixed(1) : Math.round(percent)}%`;
}
