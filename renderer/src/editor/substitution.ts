import type { ParameterValues } from '$contract/index.ts';
import { PLACEHOLDER } from '../../../main/common/parameters.ts';

// The SQL that runs is the editor's text with `{{name}}` replaced by each value's text, as the
// service does it. The service reports an error's position in that SQL; this maps it back to the
// editor, or says it falls inside a value put in.

export interface Position {
  line: number;
  column: number;
}

/** Selected text in the editor, and where it starts. */
export interface EditorSelection {
  text: string;
  start: Position;
}

/** Where a run's SQL came from: the text's start in the editor (a selection's start, else 1:1). */
export interface Substituted {
  sql: string;
  /** The editor position of a 1-based position in `sql`; null inside a value put in. */
  toEditor(at: Position): Position | null;
}

/** A piece of the SQL: copied from the text at `from`, or a value (from = null). */
interface Piece {
  start: number;
  end: number;
  from: number | null;
}

function offsetOf(text: string, { line, column }: Position): number | null {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return null;
    offset = next + 1;
  }
  return offset + column - 1;
}

function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

function valueText(value: string | string[]): string {
  // a multi-select goes in comma-joined, as the service puts it in
  return Array.isArray(value) ? value.join(',') : value;
}

/** `text` with the values put in; placeholders without a value stay as they are. */
export function substitute(text: string, values: ParameterValues, start: Position = { line: 1, column: 1 }): Substituted {
  const pieces: Piece[] = [];
  let sql = '';
  let copied = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const value = values[match[1]!];
    if (value === undefined) continue;
    pieces.push({ start: sql.length, end: sql.length + match.index - copied, from: copied });
    sql += text.slice(copied, match.index);
    const put = valueText(value);
    pieces.push({ start: sql.length, end: sql.length + put.length, from: null });
    sql += put;
    copied = match.index + match[0].length;
  }
  pieces.push({ start: sql.length, end: sql.length + text.length - copied, from: copied });
  sql += text.slice(copied);

  return {
    sql,
    toEditor(at) {
      const offset = offsetOf(sql, at);
      if (offset === null) return null;
      // an offset at a piece's end belongs to it (an error at the very end of the text)
      const piece = pieces.find((p) => offset >= p.start && (offset < p.end || (offset === p.end && p === pieces.at(-1))));
      if (!piece || piece.from === null) return null;
      const inText = positionOf(text, piece.from + offset - piece.start);
      return inText.line === 1
        ? { line: start.line, column: start.column + inText.column - 1 }
        : { line: start.line + inText.line - 1, column: inText.column };
    },
  };
}
