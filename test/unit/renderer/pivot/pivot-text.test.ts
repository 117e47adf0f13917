import { describe, expect, it } from 'vitest';
import type { PivotTable } from '../../../../main/contract/index.ts';
import { bucketsOf, groupLabel, pivotBlock } from '../../../../renderer/src/pivot/pivot-text.ts';
import { formatBlock } from '../../../../renderer/src/results/grid/clipboard-text.ts';

// A pivot's table as text: each split value a bucket of the measures, Other only when values were
// folded into it, groups named by their own value and copied with their whole path.

const style = { grouping: false };

const table: PivotTable = {
  rows: [
    { name: 'day', type: 'timestamp(3) with time zone', grain: 'day' },
    { name: 'chain', type: 'varchar', grain: null },
  ],
  split: { name: 'token', type: 'varchar', grain: null, values: ['WETH', 'USDC'], other: 3 },
  measures: [{ label: 'Sum of fee', fn: 'sum', column: 'fee', type: 'decimal(38,2)' }],
  groups: [
    { key: [], rows: 10, cells: [['12.5'], ['10'], [null], [2.5]] },
    { key: ['2024-01-01 00:00:00.000 UTC'], rows: 10, cells: [['12.5'], ['10'], [null], [2.5]] },
    { key: ['2024-01-01 00:00:00.000 UTC', null], rows: 4, cells: [[1], [1], [null], [null]] },
  ],
  truncated: null,
  inexact: [],
  fromCache: { fetchedAt: '2024-01-02T00:00:00.000Z' },
};

describe('a pivot as text', () => {
  it('has a bucket for the total, each split value and Other', () => {
    expect(bucketsOf(table, style).map((b) => b.label)).toEqual(['Total', 'WETH', 'USDC', 'Other (3)']);
    expect(bucketsOf({ ...table, split: { ...table.split!, other: 0 } }, style).map((b) => b.label)).toEqual(['Total', 'WETH', 'USDC']);
    expect(bucketsOf({ ...table, split: null }, style)).toEqual([{ label: '', index: 0 }]);
  });

  it('names a group by its own value, the grand total as Total', () => {
    expect(table.groups.map((g) => groupLabel(table, g, style))).toEqual(['Total', '2024-01-01 00:00:00.000 UTC', 'null']);
  });

  it('copies the groups with their paths, rows and each bucket’s measures, decimals to their scale', () => {
    const { columns, values, texts } = pivotBlock(table, table.groups, style);
    expect(formatBlock('markdown', columns, values, texts).split('\n')).toEqual([
      '| day › chain | Rows | Total · Sum of fee | WETH · Sum of fee | USDC · Sum of fee | Other (3) · Sum of fee |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      '| Total | 10 | 12.50 | 10.00 |  | 2.50 |',
      '| 2024-01-01 00:00:00.000 UTC | 10 | 12.50 | 10.00 |  | 2.50 |',
      '| 2024-01-01 00:00:00.000 UTC › null | 4 | 1.00 | 1.00 |  |  |',
    ]);
  });

  it("writes a decimal sum that arrives as a number from its own digits, to the measure's scale", () => {
    const wide: PivotTable = {
      ...table,
      split: null,
      measures: [{ label: 'Sum of amount', fn: 'sum', column: 'amount', type: 'decimal(38,18)' }],
      groups: [{ key: [], rows: 2, cells: [[98.8]] }],
    };
    const { texts } = pivotBlock(wide, wide.groups, style);
    expect(texts[0]).toEqual(['Total', '2', '98.800000000000000000']);
  });
});
