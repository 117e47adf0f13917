import { parseType, spreadsheetRewrite } from '../../common/dune-types/index.ts';

// The service's CSV pages rewritten to a spreadsheet's text (see spreadsheet-text.ts in the shared
// type module), page by page as they arrive: the same text a CSV export from the cache has. Only
// the fields of columns whose text changes (timestamps, decimals, bytes) are read;
// every other field, quotes and all, is passed on as the service wrote it.

type Rewrite = ((text: string) => string) | null;

const UNQUOTED = /[^,\r\n]*/y;

/** Calls `visit` with each field's raw text (quotes and all), its column, and what follows it. */
function scan(text: string, visit: (raw: string, column: number, separator: string) => void): void {
  let at = 0;
  let column = 0;
  while (at < text.length) {
    let end: number;
    if (text[at] === '"') {
      end = at + 1;
      for (;;) {
        const quote = text.indexOf('"', end);
        if (quote < 0) {
          end = text.length;
          break;
        }
        end = quote + 1;
        if (text[end] !== '"') break;
        end += 1;
      }
    } else {
      UNQUOTED.lastIndex = at;
      UNQUOTED.exec(text);
      end = UNQUOTED.lastIndex;
    }
    const separator = text.startsWith('\r\n', end) ? '\r\n' : (text[end] ?? '');
    visit(text.slice(at, end), column, separator);
    column = separator === ',' ? column + 1 : 0;
    at = end + Math.max(separator.length, 1);
  }
}

function unquoted(raw: string): string {
  return raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw;
}

function quotedIfNeeded(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The names of a CSV header line. */
export function headerNames(header: string): string[] {
  const names: string[] = [];
  scan(header, (raw) => names.push(unquoted(raw)));
  if (header.endsWith(',') || header === '') names.push('');
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
  if (rewrites.every((r) => r === null)) return null;
  return (rows) => {
    const parts: string[] = [];
    scan(rows, (raw, column, separator) => {
      const rewrite = rewrites[column] ?? null;
      const value = rewrite === null ? '' : unquoted(raw);
      // an empty field is a null, and a quoted empty one an empty text: both stay as they are
      parts.push(rewrite === null || value === '' ? raw : quotedIfNeeded(rewrite(value)), separator);
    });
    return parts.join('');
  };
}
