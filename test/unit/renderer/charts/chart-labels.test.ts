import { describe, expect, it } from 'vitest';
import { timeLabel, timeOf, xLabel } from '../../../../renderer/src/charts/chart-labels.ts';

const AT = Date.UTC(2024, 0, 1, 13, 5, 7, 120);

describe('a time on a chart', () => {
  it('reads as long as its bucket, in UTC', () => {
    const labels = Object.fromEntries(['minute', 'hour', 'day', 'week', 'month', 'year'].map((bucket) => [bucket, timeLabel(AT, bucket)]));
    expect(labels).toEqual({
      minute: '2024-01-01 13:05',
      hour: '2024-01-01 13:05',
      day: '2024-01-01',
      week: '2024-01-01',
      month: '2024-01',
      year: '2024',
    });
    expect(timeLabel(Date.UTC(2024, 0, 1, 13), 'hour')).toBe('2024-01-01 13:00');
    expect(timeLabel(AT, null)).toBe('2024-01-01 13:05:07.120');
    expect(timeLabel(Date.UTC(12024, 4, 1), 'month')).toBe('+012024-05');
  });

  it('is read from the service’s text of it, and text that is no time stays as it is', () => {
    expect(timeOf('2024-01-01 13:05:07.120 UTC')).toBe(AT);
    expect(xLabel('2024-01-01 00:00:00.000 UTC', { x: { name: 't', type: 'timestamp(3)', kind: 'time' }, bucket: 'day' })).toBe(
      '2024-01-01',
    );
    expect(xLabel('Other (3)', { x: { name: 't', type: 'timestamp(3)', kind: 'time' }, bucket: null })).toBe('Other (3)');
    expect(xLabel('2024-01-01 00:00:00.000 UTC', { x: { name: 's', type: 'varchar', kind: 'text' }, bucket: null })).toBe(
      '2024-01-01 00:00:00.000 UTC',
    );
    expect(xLabel(null, { x: { name: 't', type: 'timestamp(3)', kind: 'time' }, bucket: 'day' })).toBe('null');
  });
});
