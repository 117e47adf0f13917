import { csvField, scanRecord, unquotedCsvField } from '../../common/csv-text.ts';
import { parseType, spreadsheetRewrite } from '../../common/dune-types/index.ts';

// The service's CSV pages rewritten to a spreadsheet's text (see spreadsheet-text.ts in the shared
// type module), page by page as they arrive: the same text a CSV export from the cache has. Only
// the fields of columns whose text changes (timestamps, decimals, bytes) are read;
// every other field, quotes and all, is passed on as the service wrote it.

type Rewrite = ((text: string) => string) | null;

/** The names of a CSV header line. */
export function headerNames(header: string): string[] {
  const names: string[] = [];
  scanRecord(header, 0, (start, end) => names.push(unquotedCsvField(header.slice(start, end))));
  return names;
}

/**
 * A rewrite of a page's data rows for the CSV's `header`, from the service's column names and types;
 * null when no column's text changes (nor when the types are not known).
 */
export function spreadsheetPages(header: string, columns: { names: string[]; types: string[] } | null): ((rows: string) => string) | null {
  if (columns === null) return null;
  const rewrites: Rewrite[] = headerNames(header).map((name, i) => {
    const at = columns.names[i] === name ? i : columns.names.indexOf(name);
    const type = columns.types[at];
    return type === undefined ? null : spreadsheetRewrite(parseType(type));
  });
  const last = rewrites.findLastIndex((r) => r !== null);
  if (last < 0) return null;
  return (rows) => {
    // the text between rewritten fields is copied in runs, across records
    const parts: string[] = [];
    let copied = 0;
    const rewrite = (start: number, end: number, column: number) => {
      const raw = rows.slice(start, end);
      const value = unquotedCsvField(raw);
      // an empty field is a null, and a quoted empty one an empty text: both stay as they are
      if (value === '') return;
      parts.push(rows.slice(copied, start), csvField(rewrites[column]!(value)));
      copied = end;
    };
    let at = 0;
    let quote = rows.indexOf('"');
    while (at < rows.length) {
      if (quote >= 0 && quote < at) quote = rows.indexOf('"', at);
      const lineEnd = rows.indexOf('\n', at);
      const end = lineEnd < 0 ? rows.length : lineEnd;
      if (quote >= 0 && quote < end) {
        at = scanRecord(rows, at, (start, fieldEnd, column) => rewrites[column] && rewrite(start, fieldEnd, column));
        continue;
      }
      // most records hold no quote: their fields are what lies between the commas
      const content = rows[end - 1] === '\r' ? end - 1 : end;
      let start = at;
      for (let column = 0; column <= last; column += 1) {
        const comma = rows.indexOf(',', start);
        const fieldEnd = comma < 0 || comma > content ? content : comma;
        if (rewrites[column]) rewrite(start, fieldEnd, column);
        if (fieldEnd === content) break;
        start = fieldEnd + 1;
      }
      at = end + 1;
    }
    parts.push(rows.slice(copied));
    return parts.join('');
  };
}
