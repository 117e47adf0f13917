import type { CellValue, ChartData } from '$contract/index.ts';

// Time on a chart reads as long as its bucket: a day's `2024-01-01`, an hour's `2024-01-01 13:00`,
// a month's `2024-01`, a year's `2024`, never the bucket's start to the millisecond. Times are in
// UTC, as the service sends them and the grid shows them.

/** A moment (epoch milliseconds) as a label of the bucket it starts or falls in; unbucketed, to the millisecond. */
export function timeLabel(ms: number, bucket: string | null): string {
  // `2024-01-01T13:05:07.120Z`, or `+010000-01-01T…` past year 9999
  const [date = '', time = ''] = new Date(ms).toISOString().split('T');
  switch (bucket) {
    case 'year':
      return date.slice(0, -6);
    case 'month':
      return date.slice(0, -3);
    case 'week':
    case 'day':
      return date;
    case 'hour':
    case 'minute':
      return `${date} ${time.slice(0, 5)}`;
    default:
      return `${date} ${time.slice(0, 12)}`;
  }
}

/** A timestamp as the service writes it (`2024-01-01 00:00:00.000 UTC`) in epoch milliseconds; null if it is none. */
export function timeOf(value: CellValue): number | null {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return null;
  const parsed = Date.parse(value.replace(/ UTC$/, 'Z').replace(' ', 'T'));
  return Number.isFinite(parsed) ? parsed : null;
}

/** An x value as the chart labels it: a time by the chart's bucket, anything else as its text. */
export function xLabel(value: CellValue, data: Pick<ChartData, 'x' | 'bucket'>): string {
  if (value === null) return 'null';
  const time = data.x.kind === 'time' ? timeOf(value) : null;
  return time === null ? String(value) : timeLabel(time, data.bucket);
}
