import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceAccount } from '../accounts/account-store.ts';
import { HttpError, notFound } from '../http/http-error.ts';
import { Slots, SlotsByKey } from '../http/slots.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { TableRecord } from '../tables/table-store.ts';
import { StorageHolds } from './upload-storage.ts';

// Upload bodies read at once, and waiting, in each context: a client sets the pace of its body, so a
// context's slow uploads hold up its own only (see Slots)
const UPLOAD_SLOTS = 2;
const UPLOADS_WAITING = 32;
// Uploads read into tables by DuckDB at once, and waiting, across all contexts: each holds a file of
// the disk and memory every context shares, at the service's pace (the body is in by then)
const STORING_SLOTS = 2;
const STORING_WAITING = 64;

/**
 * What the table routes share: who may touch a table, how much a context may store, the slots
 * uploads wait in, and the names tables are given.
 */
export class TableAccess {
  readonly deps: ServiceDeps;
  /** Bodies being read, in slots of each context. */
  readonly reading = new SlotsByKey(() => new Slots(UPLOAD_SLOTS, UPLOADS_WAITING, "uploads of this key's context"));
  /** Uploads being stored, in slots of all contexts. */
  readonly storing = new Slots(STORING_SLOTS, STORING_WAITING, 'uploads being stored');
  /** The storage uploads under way hold in their contexts' plans. */
  readonly storage: StorageHolds;
  readonly #catalog: string;

  constructor(deps: ServiceDeps) {
    this.deps = deps;
    this.storage = new StorageHolds(deps.tables, deps.config.tempDir);
    this.#catalog = deps.config.serviceName.toLowerCase();
  }

  fullName(namespace: string, table: string): string {
    return `${this.#catalog}.${namespace}.${table}`;
  }

  /** A new file in the service's temporary folder for an upload's body. */
  tempFile(extension: string): string {
    return join(this.deps.config.tempDir, `upload-${randomBytes(8).toString('hex')}.${extension}`);
  }

  /** The caller's own table; another context's is 404 when private, 403 otherwise. */
  async ownTable(caller: ServiceAccount, namespace: string, table: string): Promise<TableRecord> {
    const record = await this.deps.tables.get(namespace, table);
    if (!record || (record.accountId !== caller.id && record.isPrivate)) throw notFound(`table ${namespace}.${table} not found`);
    if (record.accountId !== caller.id) throw new HttpError(403, `table ${namespace}.${table} belongs to another context`);
    return record;
  }
}
