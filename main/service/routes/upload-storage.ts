import type { ServiceAccount } from '../accounts/account-store.ts';
import { HttpError } from '../http/http-error.ts';
import { assertRoom, DATA_FLOOR_BYTES } from '../storage/disk-full.ts';
import { STORAGE_BY_PLAN } from '../tables/table-input.ts';
import type { TableStore } from '../tables/table-store.ts';

const MB = 1024 * 1024;

/** What an upload route allows. */
export interface UploadRule {
  /** The most data an upload may hold, in bytes, and that rule in words (a 413's message). */
  maxData: number;
  tooLarge: string;
  /** The least data a body of this many bytes holds: the body itself, or less when it wraps the data. */
  minData: (body: number) => number;
  /**
   * Whether the upload may replace a table it names in its body: until the body is in, that table
   * is not known, and all the storage used may be freed, so the checks before count none of it.
   */
  mayReplace: boolean;
}

/**
 * The storage each context's uploads under way hold in its plan, each until it ends. The storage
 * used is read from the tables, which an upload joins only once stored: uploads sent at once each
 * found the plan free and together passed it. Each now counts what the others hold.
 */
export class StorageHolds {
  readonly tables: TableStore;
  /** Where bodies stream to: the disk whose room they are checked against. */
  readonly tempDir: string;
  readonly #byAccount = new Map<number, Set<UploadStorage>>();

  constructor(tables: TableStore, tempDir: string) {
    this.tables = tables;
    this.tempDir = tempDir;
  }

  /**
   * Before a byte of the body is read: refused when its declared size is over the rule (413), or
   * when the least data that size holds would not fit the plan (402); else the upload holds that
   * much storage until it is `release`d, which it must be whatever happens.
   */
  async start(caller: ServiceAccount, request: { headers: { 'content-length'?: string } }, rule: UploadRule): Promise<UploadStorage> {
    const declared = Number(request.headers['content-length'] ?? 0);
    const minData = rule.minData(declared);
    if (minData > rule.maxData) throw new HttpError(413, `${rule.tooLarge}; ${declaredData(declared, minData)}`);
    const used = await this.tables.storageUsed(caller.id, null);
    // checked, held and counted with no wait between, so two uploads cannot both find the same room
    const upload = new UploadStorage(caller, rule, used, this, minData);
    let held = this.#byAccount.get(caller.id);
    if (!held) this.#byAccount.set(caller.id, (held = new Set()));
    held.add(upload);
    return upload;
  }

  /** The bytes held by the caller's uploads under way besides `upload`. */
  heldBesides(upload: UploadStorage): number {
    let bytes = 0;
    for (const other of this.#byAccount.get(upload.caller.id) ?? []) if (other !== upload) bytes += other.held;
    return bytes;
  }

  release(upload: UploadStorage): void {
    const held = this.#byAccount.get(upload.caller.id);
    if (held?.delete(upload) && held.size === 0) this.#byAccount.delete(upload.caller.id);
  }
}

/** One upload's part of its context's storage: what its declared size must hold, then what has streamed in, then its data. */
export class UploadStorage {
  readonly caller: ServiceAccount;
  readonly #rule: UploadRule;
  /**
   * The storage used as the upload began: the checks before its body is in count it, unless the
   * upload may replace a table (see UploadRule.mayReplace).
   */
  readonly #used: number;
  readonly #holds: StorageHolds;
  #held = 0;

  /** Holds `minData` at once: refused (402) when there is no room for it. */
  constructor(caller: ServiceAccount, rule: UploadRule, used: number, holds: StorageHolds, minData: number) {
    this.caller = caller;
    this.#rule = rule;
    this.#used = used;
    this.#holds = holds;
    this.#holdBeforeBody(minData);
  }

  get held(): number {
    return this.#held;
  }

  /** Checks data as it streams in: over the size limit (413), over the storage still free (402), or the disk (507). */
  streamLimit(): (bytes: number) => void {
    return (bytes) => {
      if (bytes > this.#rule.maxData) throw new HttpError(413, this.#rule.tooLarge);
      if (bytes > this.#held) this.#holdBeforeBody(bytes);
      assertRoom(this.#holds.tempDir, DATA_FLOOR_BYTES);
    };
  }

  /** Once the body is in: refuses data that would take the caller's tables past its plan's storage, else holds exactly it. */
  async check(adding: number, replacing: { namespace: string; tableName: string } | null): Promise<void> {
    const used = await this.#holds.tables.storageUsed(this.caller.id, replacing);
    this.#hold(used, used, adding, replacing ? 'bytes used by other tables' : 'bytes used');
  }

  release(): void {
    this.#holds.release(this);
  }

  #holdBeforeBody(bytes: number): void {
    this.#hold(this.#rule.mayReplace ? 0 : this.#used, this.#used, bytes, 'bytes used');
  }

  /**
   * Holds `bytes`, refused (402) when with the storage used the check counts and what the context's
   * other uploads hold they pass the plan; the refusal says what is used (`used`, as `usedWhat`).
   */
  #hold(counted: number, used: number, bytes: number, usedWhat: string): void {
    const others = this.#holds.heldBesides(this);
    if (counted + others + bytes <= STORAGE_BY_PLAN[this.caller.plan]) {
      this.#held = bytes;
      return;
    }
    const held = others > 0 ? `, ${others} held by other uploads under way` : '';
    throw new HttpError(
      402,
      `upload storage of the ${this.caller.plan} plan (${STORAGE_BY_PLAN[this.caller.plan] / MB} MB) would be exceeded: ` +
        `${used} ${usedWhat}${held}, ${bytes} more asked`,
    );
  }
}

/** What a declared size says of the data, for a 413. */
function declaredData(declared: number, minData: number): string {
  const body = `the body declares ${declared} bytes`;
  return minData < declared ? `${body}, of which at least ${minData} are data` : body;
}
