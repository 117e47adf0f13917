import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * A file of JSON lines, each a whole record, appended as it changes: a record is on disk as soon as
 * it is written (a kill -9 loses nothing appended before it), and a run of any length costs one
 * short write, never a rewrite of every run kept. Read back, the last line of each key wins. A line
 * that cannot be read (cut short by a power loss, edited by hand) is skipped and counted.
 */
export interface RecordLog<T> {
  /** The records, in the order their keys first appeared; and the lines skipped as unreadable. */
  read(): { records: T[]; skipped: number };
  /**
   * Each line's record in the file's order, as it is read, keeping none (a key written twice is
   * visited twice); answers the lines skipped as unreadable.
   */
  scan(visit: (record: T) => void): number;
  append(record: T): void;
  /** Writes only these records, atomically: the file's other lines are gone. */
  rewrite(records: T[]): void;
  /** The lines written since the file was last read or rewritten, and the records they held then. */
  readonly lines: number;
}

export function openRecordLog<T>(path: string, schema: z.ZodType<T>, keyOf: (record: T) => string): RecordLog<T> {
  let lines = 0;
  return {
    get lines() {
      return lines;
    },

    read() {
      const byKey = new Map<string, T>();
      const skipped = this.scan((record) => byKey.set(keyOf(record), record));
      return { records: [...byKey.values()], skipped };
    },

    scan(visit) {
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      // a last line cut short would swallow the next record appended after it
      if (text !== '' && !text.endsWith('\n')) appendFileSync(path, '\n', { mode: 0o600 });
      let skipped = 0;
      lines = 0;
      for (const line of text.split('\n')) {
        if (line === '') continue;
        lines++;
        const parsed = schema.safeParse(parseLine(line));
        if (!parsed.success) skipped++;
        else visit(parsed.data);
      }
      return skipped;
    },

    append(record) {
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, `${JSON.stringify(schema.parse(record))}\n`, { mode: 0o600 });
      lines++;
    },

    rewrite(records) {
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, records.map((record) => `${JSON.stringify(schema.parse(record))}\n`).join(''));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
      lines = records.length;
    },
  };
}

/**
 * Ends a last line cut short (by a power loss), which would swallow the next record appended after
 * it; for a log appended to before it is read. Reads the file's last byte only.
 */
export function endTornLine(path: string): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const last = Buffer.alloc(1);
    if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) appendFileSync(path, '\n', { mode: 0o600 });
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
