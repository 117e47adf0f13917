import type { CellValue, PivotTable } from '$contract/index.ts';
import { cellFormat, columnKind, type NumberStyle } from '../results/grid/cell-format.ts';
import type { CellText, CopyColumn } from '../results/grid/clipboard-text.ts';

// A pivot's table as it reads: its column headings, each group's name and cells as text, and the
// shown groups as a block to copy or save.

type Group = PivotTable['groups'][number];

/** A bucket of the split: the total of all values, one value, or Other. */
export interface Bucket {
  label: string;
  /** Its index in a group's `cells`. */
  index: number;
}

export function bucketsOf(table: PivotTable, style: NumberStyle): Bucket[] {
  const split = table.split;
  if (!split) return [{ label: '', index: 0 }];
  const text = cellFormat(split.type, style);
  return [
    { label: 'Total', index: 0 },
    ...split.values.map((value, i) => ({ label: text(value), index: i + 1 })),
    ...(split.other > 0 ? [{ label: `Other (${split.other})`, index: split.values.length + 1 }] : []),
  ];
}

/** Each measure's heading under a bucket. */
export function measureHeading(bucket: Bucket, label: string): string {
  return bucket.label ? `${bucket.label} · ${label}` : label;
}

/** A group's own value (the last of its key) as its row column shows it; the grand total's name. */
export function groupLabel(table: PivotTable, group: Group, style: NumberStyle): string {
  if (group.key.length === 0) return 'Total';
  const depth = group.key.length - 1;
  return cellFormat(table.rows[depth]!.type, style)(group.key[depth]);
}

/** The cells of the groups shown, as a block for the clipboard's formats: a group's path, its rows, then each bucket's measures. */
export function pivotBlock(
  table: PivotTable,
  groups: Group[],
  style: NumberStyle,
): { columns: CopyColumn[]; values: CellValue[][]; texts: CellText[][] } {
  const buckets = bucketsOf(table, style);
  const formats = table.measures.map((m) => cellFormat(m.type, style));
  const columns: CopyColumn[] = [
    { name: table.rows.map((r) => r.name).join(' › '), kind: 'text' },
    { name: 'Rows', kind: 'integer' },
    ...buckets.flatMap((b) => table.measures.map((m) => ({ name: measureHeading(b, m.label), kind: columnKind(m.type) }))),
  ];
  const path = (group: Group) =>
    group.key.length === 0
      ? 'Total'
      : group.key.map((_, depth) => groupLabel(table, { ...group, key: group.key.slice(0, depth + 1) }, style)).join(' › ');
  const values = groups.map((g) => [path(g), g.rows, ...buckets.flatMap((b) => g.cells[b.index] ?? [])]);
  const texts = groups.map((g) => [
    path(g),
    String(g.rows),
    ...buckets.flatMap((b) => (g.cells[b.index] ?? []).map((v, m) => (v === null ? null : formats[m]!(v)))),
  ]);
  return { columns, values, texts };
}
