import type { CellValue } from '$contract/index.ts';
import { csvField } from '../../../../main/common/csv-text.ts';
import {
  floatWord,
  INFINITY,
  isNumeric,
  NEGATIVE_INFINITY,
  NOT_A_NUMBER,
  spreadsheetTimestamp,
  type TypeKind,
} from '../../../../main/common/dune-types/index.ts';
import { quoteIdentifier, quoteLiteral } from '../../../../main/common/sql-quote.ts';
import { toTsv } from './tsv.ts';

// A block of cells written out for pasting elsewhere: into a spreadsheet (TSV), a file (CSV), a
// document (Markdown), code (JSON), or SQL (VALUES). Cells arrive as the grid writes them without
// separators, so a DECIMAL keeps its scale and a large integer its digits; TSV and CSV write
// timestamps without the service's ` UTC`, as spreadsheets read them (and CSV exports write them).
// JSON and SQL write each value as a literal of its kind (bytes, dates, nested values), not as the
// text the cell shows.

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
  /** What the column holds, as the shared type module reads its type. */
  kind: TypeKind;
}

/** A cell as text, null as null: what every format starts from. */
export type CellText = string | null;

function csvCell(text: CellText): string {
  return text === null ? '' : csvField(text);
}

function markdownField(text: CellText): string {
  if (text === null) return '';
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r?\n/g, '<br>');
}

/** Whether the text is JSON (a nested value or a json cell as the service sent it). */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A cell as a JSON value: a number JSON keeps exact stays a number, other digits (past 2^53, a
 * DECIMAL's scale, NaN) stay text; a nested or json value is written as its JSON text itself
 * (never parsed to a number that could round), not as a string of it.
 */
function jsonValue(text: CellText, value: CellValue, kind: TypeKind): string {
  if (text === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (isNumeric(kind) && typeof value === 'number' && Number.isFinite(value) && String(value) === text) return text;
  if ((kind === 'nested' || kind === 'json') && isJsonText(text)) return text.trim();
  return JSON.stringify(text);
}

/** Rows laid out as JSON.stringify(rows, null, 2) would, with each value's JSON written by `jsonValue`. */
function jsonRows(columns: CopyColumn[], values: CellValue[][], texts: CellText[][]): string {
  if (values.length === 0) return '[]';
  const rows = values.map((row, r) => {
    const fields = columns.map((c, i) => `    ${JSON.stringify(c.name)}: ${jsonValue(texts[r]![i]!, row[i]!, c.kind)}`);
    return fields.length === 0 ? '  {}' : `  {\n${fields.join(',\n')}\n  }`;
  });
  return `[\n${rows.join(',\n')}\n]`;
}

const SQL_NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;
// DuneSQL (Trino) writes a double that is no number as a function
const FLOAT_FUNCTIONS = new Map([
  [NOT_A_NUMBER, 'nan()'],
  [INFINITY, 'infinity()'],
  [NEGATIVE_INFINITY, '-infinity()'],
]);
const BYTES = /^0x([0-9a-f]{2})*$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}/;

/**
 * A cell as a DuneSQL literal of its kind: numbers bare with every digit, bytes as a bare `0x…`
 * (`X''` when empty), dates and timestamps typed, nested and json values as quoted JSON text.
 * A value that does not read as its kind (kept as received) is quoted text.
 */
function sqlLiteral(text: CellText, value: CellValue, kind: TypeKind): string {
  if (text === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (isNumeric(kind) && SQL_NUMBER.test(text)) return text;
  if (kind === 'float' && floatWord(text) !== null) return FLOAT_FUNCTIONS.get(floatWord(text)!)!;
  if (kind === 'binary' && BYTES.test(text)) return text === '0x' ? "X''" : text;
  if (kind === 'date' && DATE_TEXT.test(text)) return `DATE ${quoteLiteral(text)}`;
  if (kind === 'timestamp' && DATE_TEXT.test(text)) return `TIMESTAMP ${quoteLiteral(text)}`;
  return quoteLiteral(text);
}

/** The texts with each timestamp as spreadsheets read it. */
function forSpreadsheets(columns: CopyColumn[], texts: CellText[][]): CellText[][] {
  const times = columns.map((c) => c.kind === 'timestamp');
  if (!times.includes(true)) return texts;
  return texts.map((row) => row.map((text, i) => (times[i] && text !== null ? spreadsheetTimestamp(text) : text)));
}

/** The block in `format`; `texts[r][c]` is how cell `values[r][c]` reads. */
export function formatBlock(format: CopyFormat, columns: CopyColumn[], values: CellValue[][], texts: CellText[][]): string {
  const names = columns.map((c) => c.name);
  switch (format) {
    case 'tsv':
      return toTsv(names, forSpreadsheets(columns, texts));
    case 'csv':
      return [names, ...forSpreadsheets(columns, texts)].map((row) => row.map(csvCell).join(',')).join('\n');
    case 'markdown': {
      const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
      const rule = columns.map((c) => (isNumeric(c.kind) ? '---:' : '---'));
      return [line(names.map(markdownField)), line(rule), ...texts.map((row) => line(row.map(markdownField)))].join('\n');
    }
    case 'json':
      return jsonRows(columns, values, texts);
    case 'sql': {
      const rows = values.map((row, r) => `  (${columns.map((c, i) => sqlLiteral(texts[r]![i]!, row[i]!, c.kind)).join(', ')})`);
      return `SELECT * FROM (VALUES\n${rows.join(',\n')}\n) AS t(${names.map(quoteIdentifier).join(', ')})`;
    }
  }
}
