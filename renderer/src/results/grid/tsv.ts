import { csvField } from '../../../../main/common/csv-text.ts';

// Cells as spreadsheets paste them: tab-separated, a cell quoted when it holds a tab, a line break
// or a quote; null as an empty cell.

function field(value: unknown): string {
  return value === null || value === undefined ? '' : csvField(String(value), '\t');
}

export function toTsv(headers: string[], rows: unknown[][]): string {
  return [headers, ...rows].map((row) => row.map(field).join('\t')).join('\n');
}
