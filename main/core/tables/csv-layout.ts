import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { csvField, quotedCsvField } from '../../common/csv-text.ts';

// Where the records of a staged CSV file are: the end of its header row, and ranges of whole records
// of about `partBytes` each. A newline ends a record only outside quotes; an escaped quote ("") does
// not change whether the scan is inside quotes, so counting quote bytes is enough. In UTF-8 neither
// byte can be part of another character.

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

export interface ByteRange {
  start: number;
  end: number;
}

export interface CsvLayout {
  /** Offset just after the header row's line break (the file's size when it has no other row). */
  headerEnd: number;
  lineBreak: '\n' | '\r\n';
  size: number;
  /** The records after the header, in ranges that hold at least one non-empty line. */
  parts: ByteRange[];
}

export async function layoutCsv(path: string, partBytes: number): Promise<CsvLayout> {
  let offset = 0;
  let quoted = false;
  let headerEnd = -1;
  let lineBreak: '\n' | '\r\n' = '\n';
  let partStart = 0;
  let partHasData = false;
  let previous = -1;
  const parts: ByteRange[] = [];
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i]!;
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === NEWLINE && !quoted) {
        const end = offset + i + 1;
        if (headerEnd < 0) {
          headerEnd = end;
          lineBreak = previous === RETURN ? '\r\n' : '\n';
          partStart = end;
        } else if (end - partStart >= partBytes) {
          if (partHasData) parts.push({ start: partStart, end });
          partStart = end;
          partHasData = false;
        }
      } else if (byte !== RETURN && headerEnd >= 0) partHasData = true;
      previous = byte;
    }
    offset += chunk.length;
  }
  if (headerEnd < 0) headerEnd = offset;
  if (partHasData && offset > partStart) parts.push({ start: partStart, end: offset });
  return { headerEnd, lineBreak, size: offset, parts };
}

export async function readRange(path: string, range: ByteRange): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(range.end - range.start);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, range.start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** The records in a range of whole records: its lines that hold something, a line break inside quotes not counted. */
export function countRecords(part: Buffer): number {
  const unquoted = part.toString('utf8').replace(/"(?:[^"]|"")*"/g, '');
  return unquoted.split('\n').filter((line) => line.trim() !== '').length;
}

/** A header row of these names, quoted where CSV needs it. */
export function headerRow(names: string[], lineBreak: string): string {
  // quoted at a space on either end too, which a CSV reader may trim from a bare field
  const field = (name: string) => (/^\s|\s$/.test(name) ? quotedCsvField(name) : csvField(name));
  return names.map(field).join(',') + lineBreak;
}
