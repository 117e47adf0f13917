import { z } from 'zod';
import { jsonFileStore, type SettingsStore } from '../settings/settings-store.ts';

// Row counts of the tables this app uploaded, which the service's list does not give. A count holds
// while the table's update time is the one first listed after the upload: a table changed since
// (by another client, another upload) has no known count.

const Entry = z.object({ rows: z.number().int().nonnegative(), updatedAt: z.string().nullable() });
const KnownRowsFile = z.record(z.string(), Entry);
type KnownRowsFile = z.infer<typeof KnownRowsFile>;

const keyOf = (accountId: string, fullName: string) => `${accountId} ${fullName}`;

export class KnownRows {
  readonly #store: SettingsStore<KnownRowsFile>;
  #entries: KnownRowsFile;

  constructor(path: string) {
    this.#store = jsonFileStore(path, KnownRowsFile, () => ({}));
    this.#entries = this.#store.read();
  }

  remember(accountId: string, fullName: string, rows: number): void {
    this.#entries = { ...this.#entries, [keyOf(accountId, fullName)]: { rows, updatedAt: null } };
    this.#store.write(this.#entries);
  }

  forget(accountId: string, fullName: string): void {
    const { [keyOf(accountId, fullName)]: _gone, ...rest } = this.#entries;
    this.#entries = rest;
    this.#store.write(this.#entries);
  }

  /** The count for the table as listed now, or null when it is not known (any more). */
  rowsOf(accountId: string, fullName: string, updatedAt: string | null): number | null {
    const entry = this.#entries[keyOf(accountId, fullName)];
    if (entry === undefined) return null;
    if (entry.updatedAt === null) {
      this.#entries = { ...this.#entries, [keyOf(accountId, fullName)]: { ...entry, updatedAt } };
      this.#store.write(this.#entries);
      return entry.rows;
    }
    if (entry.updatedAt === updatedAt) return entry.rows;
    this.forget(accountId, fullName);
    return null;
  }
}
