import { quoteIdentifier } from '../../common/sql-quote.ts';
import { jsonCellSql } from './cell-sql.ts';
import type { Page } from './page.ts';
import type { ResultColumn } from './row-bytes.ts';

// JSON lines as DuckDB's COPY writes them, each a row's JSON object, and the text made of them
// once their line breaks are commas: rows joined as a JSON page joins them.

const LINE_BREAK = 0x0a;
const COMMA = 0x2c;

/** How a table's JSON text is written: each row's JSON, and its bytes (see PageWriter.jsonText). */
export interface JsonText {
  line: string;
  rowBytes: string;
}

/** Rows as JSON text whole, each followed by a comma; see `PageWriter.text`. */
export interface RowsText {
  body: Buffer;
  /** Where each row starts in `body`, and last, its length. */
  starts: Uint32Array;
  /** The bytes (the service's measure) of the rows before each row, and last, of all. */
  bytesBefore: Float64Array;
}

/** The rows `offset` to `offset + limit` of a text, as a page: a slice of it, not a copy. */
export function textPage(text: RowsText, offset: number, limit: number): Page {
  const rows = text.starts.length - 1;
  const from = Math.min(offset, rows);
  const to = Math.min(offset + limit, rows);
  if (to === from) return { body: [], rowCount: 0, bytes: 0 };
  return {
    body: [text.body.subarray(text.starts[from], text.starts[to]! - 1)],
    rowCount: to - from,
    bytes: text.bytesBefore[to]! - text.bytesBefore[from]!,
  };
}

/**
 * A row's JSON object, as SQL: its cells as they are where `numbersFit` says all of a column's
 * values are exact JSON numbers (see `jsonCellSql`).
 */
export function jsonLineSql(columns: ResultColumn[], numbersFit: readonly boolean[]): string {
  return `to_json(struct_pack(${columns.map((column, i) => `${quoteIdentifier(column.name)} := ${jsonCellSql(column, numbersFit[i] ?? false)}`).join(', ')}))`;
}

/** For each of the `facts` (null where none was asked), whether it holds: `answers` are those asked, in order. */
export function whichFactsHold(facts: (string | null)[], answers: unknown[]): boolean[] {
  let next = 0;
  return facts.map((fact) => fact !== null && answers[next++] === true);
}

/**
 * Turns the line breaks after JSON lines into commas, in place, and answers where each line starts,
 * and last, the text's length. JSON text holds a line break only between values, never inside one.
 */
export function commasForLineBreaks(body: Buffer): Uint32Array {
  const starts = lineStarts(body);
  for (const end of starts.subarray(1)) body[end - 1] = COMMA;
  return starts;
}

/** Where each JSON line starts, and last, the text's length. */
function lineStarts(body: Buffer): Uint32Array {
  const starts = [0];
  for (let at = body.indexOf(LINE_BREAK); at !== -1; at = body.indexOf(LINE_BREAK, at + 1)) starts.push(at + 1);
  return Uint32Array.from(starts);
}
