import { describe, expect, it } from 'vitest';
import type { ChartData } from '../../../../main/contract/index.ts';
import { chartCaption, chartConfig } from '../../../../renderer/src/charts/chart-config.ts';

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

describe('a chart of time in buckets', () => {
  const byDay = (bucket: string, second = '2024-01-02'): ChartData => ({
    ...data([]),
    x: { name: 'block_time', type: 'timestamp(3)', kind: 'time' },
    bucket,
    yColumns: ['amount'],
    rows: [
      ['2024-01-01 00:00:00.000 UTC', null, 5],
      [`${second} 00:00:00.000 UTC`, null, 7],
    ],
  });
  type Callbacks = { title: (items: { parsed: { x: number; y: number }; dataset: { label: string } }[]) => string };
  type Ticks = { callback: (value: number) => string };

  it('labels bars, pie slices and the caption by the bucket, not to the millisecond', () => {
    expect(chartConfig(byDay('day'), 'bar').data.labels).toEqual(['2024-01-01', '2024-01-02']);
    expect(chartConfig(byDay('month', '2024-02-01'), 'bar').data.labels).toEqual(['2024-01', '2024-02']);
    expect(chartConfig(byDay('year', '2025-01-01'), 'bar').data.labels).toEqual(['2024', '2025']);
    expect(chartCaption(byDay('day'), 'pie')).toContain('categories: 2024-01-01, 2024-01-02');
  });

  it('labels a line’s axis ticks and tooltips by the bucket', () => {
    const line = chartConfig(byDay('hour'), 'line');
    const ticks = (line.options?.scales?.x as { ticks: Ticks }).ticks;
    expect(ticks.callback(Date.UTC(2024, 0, 1, 13))).toBe('2024-01-01 13:00');
    const tooltip = (line.options?.plugins?.tooltip as { callbacks: Callbacks }).callbacks;
    expect(tooltip.title([{ parsed: { x: Date.UTC(2024, 0, 2), y: 7 }, dataset: { label: 'amount' } }])).toBe('2024-01-02 00:00');
    const points = (line.data.datasets[0]?.data ?? []) as { x: number; y: number }[];
    expect(points.map((p) => p.x)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
  });
});
