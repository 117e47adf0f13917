import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceAccount } from '../accounts/account-store.ts';
import { HttpError, notFound } from '../http/http-error.ts';
import { Slots, SlotsByKey } from '../http/slots.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { assertRoom, DATA_FLOOR_BYTES } from '../storage/disk-full.ts';
import { STORAGE_BY_PLAN } from '../tables/table-input.ts';
import type { TableRecord } from '../tables/table-store.ts';

const MB = 1024 * 1024;
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
  readonly #catalog: string;

  constructor(deps: ServiceDeps) {
    this.deps = deps;
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

  /** Refuses data that would take the caller's tables past its plan's storage. */
  async checkStorage(caller: ServiceAccount, adding: number, replacing: { namespace: string; tableName: string } | null): Promise<void> {
    const used = await this.deps.tables.storageUsed(caller.id, replacing);
    if (used + adding > STORAGE_BY_PLAN[caller.plan]) throw storageRefusal(caller, used, adding);
  }

  /**
   * Before a byte of the body is read: refused when its declared size is over `maxBody`, or when
   * even the smallest data that size could hold (`minData`) would not fit the plan's storage.
   */
  checkDeclared(
    caller: ServiceAccount,
    request: { headers: { 'content-length'?: string } },
    maxBody: number,
    minData: (body: number) => number,
  ): void {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBody) throw new HttpError(413, `the request body is larger than ${maxBody} bytes`);
    if (minData(declared) > STORAGE_BY_PLAN[caller.plan]) throw storageRefusal(caller, 0, minData(declared));
  }

  /** Checks data as it streams in: over the size limit (413), over the storage still free (402), or the disk (507). */
  streamLimit(caller: ServiceAccount, maxBytes: number, tooLarge: string, used: number): (bytes: number) => void {
    return (bytes) => {
      if (bytes > maxBytes) throw new HttpError(413, tooLarge);
      if (used + bytes > STORAGE_BY_PLAN[caller.plan]) throw storageRefusal(caller, used, bytes);
      assertRoom(this.deps.config.tempDir, DATA_FLOOR_BYTES);
    };
  }
}

function storageRefusal(caller: ServiceAccount, used: number, adding: number): HttpError {
  return new HttpError(
    402,
    `upload storage of the ${caller.plan} plan (${STORAGE_BY_PLAN[caller.plan] / MB} MB) would be exceeded: ` +
      `${used} bytes used, ${adding} more asked`,
  );
}
