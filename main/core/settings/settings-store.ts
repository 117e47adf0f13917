import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
 * A JSON file written atomically (temporary file, then rename), so a crash mid-write leaves the
 * previous settings intact. A file that cannot be parsed is kept aside, not overwritten.
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
      writeFileSync(temporary, `${JSON.stringify(schema.parse(value), null, 2)}\n`, { mode: 0o600 });
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
