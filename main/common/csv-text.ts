// CSV as RFC 4180 writes it, for every layer that reads or writes it: the service's CSV pages and
// header rows, the app's exports and uploads, and the grid's copied cells (CSV and, with a tab
// as separator, TSV). One definition, so what one layer writes the others read back unchanged.

/** A field in double quotes, its quotes doubled. */
export function quotedCsvField(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** A field as written: quoted only when it holds the separator, a quote or a line break. */
export function csvField(text: string, separator: ',' | '\t' = ','): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? quotedCsvField(text) : text;
}

/** A field's text from the field as written (quotes and all). */
export function unquotedCsvField(raw: string): string {
  return raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw;
}

const UNQUOTED = /[^,\r\n]*/y;

/**
 * Calls `visit` with where each field of the record starting at `at` begins and ends (quotes and
 * all) and its column; returns where the next record starts (past the end when the text ends).
 */
export function scanRecord(text: string, at: number, visit: (start: number, end: number, column: number) => void): number {
  for (let column = 0; ; column += 1) {
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
    visit(at, end, column);
    if (text[end] !== ',') return text.startsWith('\r\n', end) ? end + 2 : end + 1;
    at = end + 1;
  }
}
