import type { CellValue } from '../../../../main/contract/index.ts';
import { toTsv } from './tsv.ts';

// A block of cells written out for pasting elsewhere: into a spreadsheet (TSV), a file (CSV), a
// document (Markdown), code (JSON), or SQL (VALUES). Cells arrive as the grid writes them without
// separators, so a DECIMAL keeps its scale and a large integer its digits.

export const COPY_FORMATS = ['tsv', 'csv', 'markdown', 'json', 'sql'] as const;
export type CopyFormat = (typeof COPY_FORMATS)[number];

export const FORMAT_LABELS: Record<CopyFormat, string> = {
  tsv: 'Copy (tab-separated, for spreadsheets)',
  csv: 'Copy as CSV',
  markdown: 'Copy as a Markdown table',
  json: 'Copy as JSON rows',
  sql: 'Copy as SQL VALUES',
};

export interface CopyColumn {
  name: string;
  /** Numbers go unquoted in SQL and as numbers in JSON. */
  numeric: boolean;
}

/** A cell as text, null as null: what every format starts from. */
export type CellText = string | null;

function csvField(text: CellText): string {
  if (text === null) return '';
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function markdownField(text: CellText): string {
  if (text === null) return '';
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r?\n/g, '<br>');
}

/** A number that JSON keeps exact stays a number; other digits (past 2^53, a DECIMAL's scale) stay text. */
function jsonValue(text: CellText, value: CellValue, numeric: boolean): unknown {
  if (text === null) return null;
  if (typeof value === 'boolean') return value;
  if (numeric && typeof value === 'number' && String(value) === text) return value;
  return text;
}

function sqlLiteral(text: CellText, value: CellValue, numeric: boolean): string {
  if (text === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (numeric && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text)) return text;
  return `'${text.replaceAll("'", "''")}'`;
}

function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The block in `format`; `texts[r][c]` is how cell `values[r][c]` reads. */
export function formatBlock(format: CopyFormat, columns: CopyColumn[], values: CellValue[][], texts: CellText[][]): string {
  const names = columns.map((c) => c.name);
  switch (format) {
    case 'tsv':
      return toTsv(names, texts);
    case 'csv':
      return [names, ...texts].map((row) => row.map(csvField).join(',')).join('\n');
    case 'markdown': {
      const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
      const rule = columns.map((c) => (c.numeric ? '---:' : '---'));
      return [line(names.map(markdownField)), line(rule), ...texts.map((row) => line(row.map(markdownField)))].join('\n');
    }
    case 'json': {
      const rows = values.map((row, r) => Object.fromEntries(columns.map((c, i) => [c.name, jsonValue(texts[r]![i]!, row[i]!, c.numeric)])));
      return JSON.stringify(rows, null, 2);
    }
    case 'sql': {
      const rows = values.map((row, r) => `  (${columns.map((c, i) => sqlLiteral(texts[r]![i]!, row[i]!, c.numeric)).join(', ')})`);
      return `SELECT * FROM (VALUES\n${rows.join(',\n')}\n) AS t(${names.map(sqlName).join(', ')})`;
    }
  }
}
