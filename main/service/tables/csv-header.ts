import { open } from 'node:fs/promises';
import { repeatedColumnName } from './table-input.ts';

// A CSV's first line names its columns. It is read here rather than by DuckDB, whose reader
// renames what it cannot use (`a,a` becomes a, a_1; an empty name column1; ` a` a) where a name
// the client gave must be kept or refused; the rows are then read with these names, every one.

const CHUNK_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 1024 * 1024;

/** The first record's text, up to its line break outside quotes; null for a file with nothing in it. */
async function firstRecord(path: string): Promise<string | null> {
  const file = await open(path, 'r');
  try {
    // drops a byte order mark, as DuckDB does
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let text = '';
    let quoted = false;
    // a quote opens a quoted field only at the field's start, as DuckDB reads one (`x"y` is a value)
    let fieldStart = true;
    let closed = false;
    let scanned = 0;
    for (;;) {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
      const done = bytesRead === 0;
      text += decoder.decode(buffer.subarray(0, bytesRead), { stream: !done });
      for (; scanned < text.length; scanned++) {
        const char = text[scanned];
        if (char === '"' && (quoted || fieldStart || closed)) {
          // a quote right after a closing one is a quote inside the field (`""`)
          closed = quoted;
          quoted = !quoted;
        } else {
          if (!quoted && (char === '\n' || char === '\r')) return text.slice(0, scanned);
          closed = false;
        }
        fieldStart = !quoted && char === ',';
      }
      if (done) return text === '' ? null : text;
      if (text.length > MAX_HEADER_BYTES) throw new Error(`the CSV's first line is longer than ${MAX_HEADER_BYTES / 1024 / 1024} MB`);
    }
  } catch (error) {
    if (error instanceof TypeError) throw new Error('the CSV is not UTF-8 text');
    throw error;
  } finally {
    await file.close();
  }
}

/** The fields of one CSV record (RFC 4180: `,` between fields, `"` around one, `""` for a quote in it). */
function fields(record: string): string[] {
  const names: string[] = [];
  let at = 0;
  for (;;) {
    let name = '';
    if (record[at] === '"') {
      for (at++; ; at++) {
        if (at >= record.length) throw new Error(`the header's quote before column ${names.length + 1} is never closed`);
        if (record[at] === '"' && record[at + 1] === '"') {
          name += '"';
          at++;
        } else if (record[at] === '"') break;
        else name += record[at];
      }
      at++;
      if (at < record.length && record[at] !== ',')
        throw new Error(`the header's column ${names.length + 1} has text after its closing quote`);
    } else {
      const end = record.indexOf(',', at);
      name = record.slice(at, end === -1 ? record.length : end);
      at += name.length;
    }
    names.push(name);
    if (at >= record.length) return names;
    at++;
  }
}

/**
 * The column names a CSV file's first line gives, refused (with the reason) when there are none or
 * when a column could not be named by them: one without a name, one with spaces around its name,
 * or two names that are the same whatever their case.
 */
export async function readCsvHeader(path: string): Promise<string[]> {
  const record = await firstRecord(path);
  if (record === null) throw new Error('the CSV is empty: its first line must name the columns');
  const names = fields(record);
  const unnamed = names.indexOf('');
  if (unnamed !== -1) throw new Error(`column ${unnamed + 1} of the header has no name`);
  const spaced = names.find((name) => name.trim() !== name);
  if (spaced !== undefined) throw new Error(`column name '${spaced}' has spaces around it`);
  const repeated = repeatedColumnName(names);
  if (repeated !== null) throw new Error(`column name '${repeated}' is given twice (names are the same whatever their case)`);
  return names;
}
