import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * Settings and account profiles (never secrets). The Electron host backs this with electron-store;
 * the browser host and the tests with a JSON file. Both go through a schema, so a hand-edited or
 * half-migrated file is reported instead of crashing the app.
 */
export interface SettingsStore<T> {
  read(): T;
  write(value: T): void;
}

/**
 * A JSON file written atomically (temporary file flushed to disk, then rename), so a crash or a
 * power cut mid-write leaves the previous content intact. A file that cannot be parsed is kept
 * aside, not overwritten.
 */
export function jsonFileStore<T>(path: string, schema: z.ZodType<T>, defaults: () => T): SettingsStore<T> {
  return {
    read() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaults();
        throw error;
      }
      const parsed = schema.safeParse(parseJson(text));
      if (parsed.success) return parsed.data;
      renameSync(path, `${path}.unreadable-${Date.now()}`);
      return defaults();
    },
    write(value) {
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(schema.parse(value), null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
