import type { ChartConfiguration, ChartDataset } from 'chart.js';
import { ChartKind, showsTopCategories, type CellValue, type ChartData } from '$contract/index.ts';
import { formatCount } from '../lib/format.ts';
import { timeLabel, timeOf, xLabel } from './chart-labels.ts';

export const CHART_KINDS = ChartKind.options;

const PALETTE = ['#2f6fde', '#e0732f', '#1a9f6e', '#c0312b', '#8a3ab9', '#b8920b', '#0e8fa3', '#6b7280'];

/** Timestamps come as the service writes them (`2024-01-01 00:00:00.000 UTC`); numbers as numbers. */
function toNumber(value: CellValue, kind: ChartData['x']['kind']): number | null {
  if (kind === 'time') return timeOf(value);
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

function label(value: CellValue): string {
  return value === null ? 'null' : String(value);
}

interface Series {
  label: string;
  /** [x, y] per point, in x order. */
  points: [CellValue, CellValue][];
}

/** One series per y column and group: `rows` are [x, group, y1, y2, …]. */
function seriesOf(data: ChartData): Series[] {
  const yNames = data.yColumns.length > 0 ? data.yColumns : ['count'];
  const byGroup = new Map<string, CellValue[][]>();
  for (const row of data.rows) {
    const key = data.groupBy === null ? '' : label(row[1] ?? null);
    const list = byGroup.get(key) ?? [];
    list.push(row);
    byGroup.set(key, list);
  }
  const series: Series[] = [];
  for (const [group, rows] of byGroup) {
    yNames.forEach((y, k) => {
      // a series whose values pass 2^53 is drawn from doubles that only estimate them
      const estimate = data.inexact.includes(y) ? '≈ ' : '';
      const name = data.groupBy === null ? y : yNames.length > 1 ? `${group} · ${y}` : group;
      series.push({ label: `${estimate}${name}`, points: rows.map((row) => [row[0] ?? null, row[2 + k] ?? null]) });
    });
  }
  return series;
}

function axisTitle(data: ChartData): string {
  return data.bucket ? `${data.x.name} (${data.bucket})` : data.x.name;
}

function valueTitle(data: ChartData): string {
  const what = data.yColumns.length > 0 ? data.yColumns.join(', ') : 'rows';
  return data.aggregation === null ? what : `${data.aggregation}(${what})`;
}

/** The categories past the top N, as one more category; its name says how many it holds. */
function withOther(data: ChartData): ChartData {
  if (!data.other) return data;
  const name = `Other (${formatCount(data.other.categories)})`;
  return { ...data, rows: [...data.rows, ...data.other.rows.map((row) => [name, ...row.slice(1)])] };
}

function color(index: number, alpha = 1): string {
  const hex = PALETTE[index % PALETTE.length]!;
  return alpha === 1
    ? hex
    : `${hex}${Math.round(alpha * 255)
        .toString(16)
        .padStart(2, '0')}`;
}

/** Bars and pies (and lines over text) read x as categories, in the order main sent them. */
function categorical(sent: ChartData, kind: 'bar' | 'pie' | 'line' | 'area'): ChartConfiguration {
  const data = withOther(sent);
  const labels = [...new Set(data.rows.map((row) => xLabel(row[0] ?? null, data)))];
  const series = seriesOf(data);
  const datasets = series.map((s, i): ChartDataset => {
    const byLabel = new Map(s.points.map(([x, y]) => [xLabel(x, data), toNumber(y, 'number')]));
    return {
      label: s.label,
      data: labels.map((l) => byLabel.get(l) ?? null),
      backgroundColor: kind === 'pie' ? labels.map((_, j) => color(j, 0.85)) : color(i, kind === 'bar' ? 0.8 : 0.25),
      borderColor: kind === 'pie' ? '#ffffff' : color(i),
      borderWidth: 1,
      ...(kind === 'area' ? { fill: 'origin' } : {}),
    } as ChartDataset;
  });
  const shown = kind === 'pie' ? datasets.slice(0, 1) : datasets;
  return {
    type: kind === 'area' ? 'line' : kind,
    data: { labels, datasets: shown },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: { legend: { display: kind === 'pie' || shown.length > 1 }, title: { display: true, text: valueTitle(data) } },
      scales:
        kind === 'pie'
          ? {}
          : { x: { title: { display: true, text: axisTitle(data) } }, y: { title: { display: true, text: valueTitle(data) } } },
    },
  } as ChartConfiguration;
}

interface TooltipItem {
  parsed: { x: number; y: number };
  dataset: { label?: string };
}

/** A point's time by its bucket (a linear axis would show epoch milliseconds), then each series' value. */
function timeTooltip(data: ChartData) {
  return {
    title: (items: TooltipItem[]) => (items[0] ? timeLabel(items[0].parsed.x, data.bucket) : ''),
    label: (item: TooltipItem) => `${item.dataset.label ?? ''}: ${item.parsed.y.toLocaleString()}`,
  };
}

/** Lines, areas and scatters on a linear x (time as epoch milliseconds), so decimation applies. */
function continuous(data: ChartData, kind: 'line' | 'area' | 'scatter'): ChartConfiguration {
  const isTime = data.x.kind === 'time';
  const datasets = seriesOf(data).map((s, i) => ({
    label: s.label,
    data: s.points.flatMap(([x, y]) => {
      const px = toNumber(x, data.x.kind);
      const py = toNumber(y, 'number');
      return px === null || py === null ? [] : [{ x: px, y: py }];
    }),
    borderColor: color(i),
    backgroundColor: color(i, kind === 'area' ? 0.25 : 0.7),
    fill: kind === 'area' ? 'origin' : false,
    showLine: kind !== 'scatter',
    pointRadius: kind === 'scatter' ? 2 : 0,
    borderWidth: kind === 'scatter' ? 0 : 1.5,
  }));
  return {
    type: kind === 'scatter' ? 'scatter' : 'line',
    data: { datasets },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        decimation: { enabled: kind !== 'scatter', algorithm: 'lttb', samples: 400 },
        legend: { display: datasets.length > 1 },
        title: { display: true, text: valueTitle(data) },
        tooltip: isTime ? { callbacks: timeTooltip(data) } : {},
      },
      scales: {
        x: {
          type: 'linear',
          title: { display: true, text: axisTitle(data) },
          ticks: isTime ? { callback: (value: string | number) => timeLabel(Number(value), data.bucket) } : {},
        },
        y: { title: { display: true, text: valueTitle(data) } },
      },
    },
  } as ChartConfiguration;
}

export function chartConfig(data: ChartData, kind: ChartKind): ChartConfiguration {
  if (kind === 'bar' || kind === 'pie') return categorical(data, kind);
  // text on x is not a number line: categories, in main's order
  if (data.x.kind === 'text') return categorical(data, kind === 'scatter' ? 'bar' : kind);
  return continuous(data, kind);
}

/** What the canvas shows, in words: for screen readers, and for reading the chart's labels at all outside it. */
export function chartCaption(data: ChartData, kind: ChartKind): string {
  const series = [...new Set(seriesOf(data).map((s) => s.label))];
  const caption = `${kind} chart · x: ${axisTitle(data)} · y: ${valueTitle(data)} · series: ${series.join(', ')}`;
  if (!showsTopCategories(kind, data.x.kind)) return caption;
  const categories = [...new Set(withOther(data).rows.map((row) => xLabel(row[0] ?? null, data)))];
  return `${caption} · categories: ${categories.join(', ')}`;
}
