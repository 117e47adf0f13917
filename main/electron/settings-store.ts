import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Store from 'electron-store';
import type { z } from 'zod';
import type { SettingsStore } from '../core/settings/settings-store.ts';

// The Electron host keeps settings and account profiles (never secrets) with electron-store: one
// JSON file in the app's data folder, written atomically, one key per kind of setting. Like the
// browser host's JSON file, what cannot be read is kept aside rather than lost or crashed on.

const FILE_NAME = 'settings';

/** The settings file in `dir`; a file that is not JSON at all is renamed aside and a fresh one started. */
export function openSettingsFile(dir: string): Store {
  try {
    return new Store({ cwd: dir, name: FILE_NAME });
  } catch (error) {
    const path = join(dir, `${FILE_NAME}.json`);
    if (!(error instanceof SyntaxError) || !existsSync(path)) throw error;
    renameSync(path, `${path}.unreadable-${Date.now()}`);
    return new Store({ cwd: dir, name: FILE_NAME });
  }
}

/** One key of the settings file, checked against its schema on every read and write. */
export function electronSettingsStore<T>(file: Store, key: string, schema: z.ZodType<T>, defaults: () => T): SettingsStore<T> {
  return {
    read() {
      const stored = file.get(key);
      if (stored === undefined) return defaults();
      const parsed = schema.safeParse(stored);
      if (parsed.success) return parsed.data;
      file.set(`${key}-unreadable-${Date.now()}`, stored);
      file.delete(key);
      return defaults();
    },
    write(value) {
      file.set(key, schema.parse(value));
    },
  };
}
