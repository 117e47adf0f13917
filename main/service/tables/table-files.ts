import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

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
  #retired = new Set<string>();

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
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
    if (names.some((name) => this.#retired.has(name))) return false;
    for (const name of names) this.#holders.set(name, (this.#holders.get(name) ?? 0) + 1);
    return true;
  }

  release(names: string[]): void {
    for (const name of names) {
      const left = (this.#holders.get(name) ?? 1) - 1;
      if (left > 0) this.#holders.set(name, left);
      else {
        this.#holders.delete(name);
        if (this.#retired.has(name)) this.#delete(name);
      }
    }
  }

  /** The file is no longer any table's: deleted now, or when its last holder lets go. */
  retire(name: string): void {
    this.#retired.add(name);
    if (!this.#holders.has(name)) this.#delete(name);
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
  }
}
