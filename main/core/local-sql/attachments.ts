import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttachedCsv } from './sandbox.ts';

// CSV files the user attached to local SQL, kept per account as files of their own in local SQL's
// folder: the sandbox may read these and no other host file, and a request names one only by its
// table name, never by a path.

export class Attachments {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #folder(accountId: string): string {
    return join(this.#dir, createHash('sha256').update(accountId).digest('hex').slice(0, 16));
  }

  /** Writes a part of the file: the first part (not `append`) starts it again. */
  attach(accountId: string, name: string, text: string, append: boolean): { name: string; bytes: number } {
    const folder = this.#folder(accountId);
    const file = join(folder, `${name}.csv`);
    mkdirSync(folder, { recursive: true });
    if (append && existsSync(file)) appendFileSync(file, text);
    else writeFileSync(file, text, { mode: 0o600 });
    return { name, bytes: statSync(file).size };
  }

  detach(accountId: string, name: string): boolean {
    const file = join(this.#folder(accountId), `${name}.csv`);
    if (!existsSync(file)) return false;
    rmSync(file, { force: true });
    return true;
  }

  list(accountId: string): (AttachedCsv & { bytes: number })[] {
    const folder = this.#folder(accountId);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((file) => /^[a-z_][a-z0-9_]*\.csv$/.test(file))
      .map((file) => ({ name: file.slice(0, -'.csv'.length), path: join(folder, file), bytes: statSync(join(folder, file)).size }));
  }
}
