import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { BoundedCache } from '../bounded-cache.ts';

/** The name of the table inside each table file. */
export const DATA = 'data';

/**
 * Each uploaded table lives in a DuckDB file of its own, written once and then only read, so an
 * execution can attach exactly the files its caller may read, read-only, while uploads go on.
 * A change writes a new file and retires the old one; a retired file is deleted once no running
 * execution holds it (one that is about to attach it sees it retired and reads the list again).
 */
export class TableFiles {
  readonly dir: string;
  #holders = new Map<string, number>();
  /** Retired files still held, deleted when their last holder lets go. */
  #retiredHeld = new Set<string>();
  /**
   * Files retired and deleted lately, so that a list of tables read before their retirement is
   * refused. Every name was kept once, and a service changing tables all day grew by each; a list
   * is acquired right after it is read, so the latest few thousand are plenty.
   */
  #gone = new BoundedCache<string, true>({ entries: SERVICE_CACHES.retiredTableFiles });

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  /** How many names of retired files are kept, held ones and deleted ones. */
  get retiredNames(): number {
    return this.#retiredHeld.size + this.#gone.count;
  }

  /** A name for a file not yet written. */
  newName(): string {
    return `${randomBytes(12).toString('hex')}.duckdb`;
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  /** Holds the files against deletion; false (holding none) when one of them was retired. */
  acquire(names: string[]): boolean {
    if (names.some((name) => this.#retiredHeld.has(name) || this.#gone.has(name))) return false;
    for (const name of names) this.#holders.set(name, (this.#holders.get(name) ?? 0) + 1);
    return true;
  }

  release(names: string[]): void {
    for (const name of names) {
      const left = (this.#holders.get(name) ?? 1) - 1;
      if (left > 0) this.#holders.set(name, left);
      else {
        this.#holders.delete(name);
        if (this.#retiredHeld.delete(name)) this.#delete(name);
      }
    }
  }

  /** The file is no longer any table's: deleted now, or when its last holder lets go. */
  retire(name: string): void {
    if (this.#holders.has(name)) this.#retiredHeld.add(name);
    else this.#delete(name);
  }

  /** Deletes files no table points to: left by a process that stopped between writing and recording. */
  sweep(referenced: Set<string>): void {
    for (const entry of readdirSync(this.dir)) {
      const name = entry.replace(/\.wal$/, '');
      if (!referenced.has(name)) rmSync(join(this.dir, entry), { force: true });
    }
  }

  #delete(name: string): void {
    for (const file of [name, `${name}.wal`]) rmSync(this.path(file), { force: true });
    this.#gone.set(name, true);
  }
}
