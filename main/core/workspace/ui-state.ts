import { join } from 'node:path';
import { z } from 'zod';
import { uiValue } from '../../contract/index.ts';
import { jsonFileStore, type SettingsStore } from '../settings/settings-store.ts';
import { accountDir } from './account-dirs.ts';

type UiValue = z.infer<typeof uiValue>;
const UiFile = z.object({ values: z.record(z.string(), uiValue) });
type UiFile = z.infer<typeof UiFile>;

/** The window's state per account (see contract/ui.ts), one JSON file each, written atomically. */
export class UiState {
  readonly #workspacesDir: string;
  readonly #files = new Map<string, { store: SettingsStore<UiFile>; data: UiFile }>();

  constructor(workspacesDir: string) {
    this.#workspacesDir = workspacesDir;
  }

  get(accountId: string, key: string): UiValue | null {
    return this.#open(accountId).data.values[key] ?? null;
  }

  set(accountId: string, key: string, value: UiValue | null): void {
    const file = this.#open(accountId);
    const values = { ...file.data.values };
    if (value === null) delete values[key];
    else values[key] = value;
    file.store.write({ values });
    file.data = { values };
  }

  /** The account's folder is about to be removed: forget what was read from it. */
  forget(accountId: string): void {
    this.#files.delete(accountId);
  }

  #open(accountId: string): { store: SettingsStore<UiFile>; data: UiFile } {
    let file = this.#files.get(accountId);
    if (!file) {
      const store = jsonFileStore(join(accountDir(this.#workspacesDir, accountId), 'ui.json'), UiFile, () => ({ values: {} }));
      file = { store, data: store.read() };
      this.#files.set(accountId, file);
    }
    return file;
  }
}
