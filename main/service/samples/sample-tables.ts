import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { duckdbBytes, SERVICE_DUCKDB_BYTES } from '../../common/memory-budgets.ts';
import { duckdb } from '../storage/duckdb-module.ts';
import { sampleStatements } from './sample-sql.ts';

// Made again when the sample's content changes, under a new name; older files are removed at start.
const FILE = 'dune-sample-1.duckdb';
// The DuckDB that makes the file is the service's for a few seconds: bounded as its others are,
// and on one thread, which leaves the other cores to executions and took half the CPU of two
// (the work is many small statements, whose parallel parts cost more than they save).
const MAKING = { memory_limit: duckdbBytes(SERVICE_DUCKDB_BYTES.sampleMaking), threads: '1' };

/**
 * The sample of Dune's tables, one DuckDB file in the data folder's `samples/`, made the first
 * time an execution names one of them (a few seconds) and kept: a new data folder, and each test
 * service, pays for it only when it is used. It is written under a name of its own and renamed
 * when whole, so a service stopped on the way leaves no half-made sample, only a file removed at
 * the next start.
 */
export class SampleTables {
  readonly #dir: string;
  #made: boolean;
  #making: Promise<string> | null = null;

  constructor(dataDir: string) {
    this.#dir = join(dataDir, 'samples');
    mkdirSync(this.#dir, { recursive: true });
    let made = false;
    for (const entry of readdirSync(this.#dir)) {
      if (entry === FILE) made = true;
      else rmSync(join(this.#dir, entry), { force: true, recursive: true });
    }
    this.#made = made;
  }

  /** The file, when made already. */
  get file(): string | null {
    return this.#made ? join(this.#dir, FILE) : null;
  }

  /** The file, made first when it is not there yet; one making at a time, tried again after a failure. */
  make(): Promise<string> {
    const file = this.file;
    if (file !== null) return Promise.resolve(file);
    this.#making ??= this.#write().finally(() => {
      this.#making = null;
    });
    return this.#making;
  }

  async #write(): Promise<string> {
    const making = join(this.#dir, `making-${randomBytes(6).toString('hex')}.duckdb`);
    try {
      const instance = await duckdb.DuckDBInstance.create(making, { ...MAKING, temp_directory: `${making}.tmp` });
      try {
        const connection = await instance.connect();
        try {
          for (const statement of sampleStatements()) await connection.run(statement);
          await connection.run('CHECKPOINT');
        } finally {
          connection.closeSync();
        }
      } finally {
        instance.closeSync();
      }
      await rename(making, join(this.#dir, FILE));
      this.#made = true;
      return join(this.#dir, FILE);
    } finally {
      for (const leftover of [making, `${making}.wal`, `${making}.tmp`]) rmSync(leftover, { force: true, recursive: true });
    }
  }
}
