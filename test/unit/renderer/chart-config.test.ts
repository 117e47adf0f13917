import { describe, expect, it } from 'vitest';
import type { ChartData } from '../../../main/contract/index.ts';
import { chartCaption, chartConfig } from '../../../renderer/src/charts/chart-config.ts';

const data = (inexact: string[]): ChartData => ({
  x: { name: 'blockchain', type: 'varchar', kind: 'text' },
  bucket: null,
  yColumns: ['amount', 'fee'],
  groupBy: null,
  aggregation: 'sum',
  rows: [
    ['base', null, 1.157920892373162e77, 3],
    ['ethereum', null, 5, 4],
  ],
  other: null,
  sample: null,
  truncated: false,
  inexact,
  fromCache: { fetchedAt: '2026-11-26T12:00:00.000Z' },
});

describe('a chart of sums past 2^53', () => {
  it('marks the series a double only estimates with ≈, and no other', () => {
    const labels = (chartConfig(data(['amount']), 'bar').data.datasets ?? []).map((d) => d.label);
    expect(labels).toEqual(['≈ amount', 'fee']);
    expect(chartCaption(data(['amount']), 'bar')).toContain('≈ amount');
    expect((chartConfig(data([]), 'bar').data.datasets ?? []).map((d) => d.label)).toEqual(['amount', 'fee']);
  });
});
