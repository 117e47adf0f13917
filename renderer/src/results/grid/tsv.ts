// Cells as spreadsheets paste them: tab-separated, a cell quoted when it holds a tab, a line break
// or a quote; null as an empty cell.

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[\t\n\r"]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toTsv(headers: string[], rows: unknown[][]): string {
  return [headers, ...rows].map((row) => row.map(field).join('\t')).join('\n');
}
