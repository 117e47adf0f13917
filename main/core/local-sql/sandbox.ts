import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckdbBytes } from '../../common/memory-budgets.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { duckdbModule } from '../duckdb-module.ts';

// Where a local statement is judged before it runs: an in-memory DuckDB of its own, holding an
// empty table of each cached result's columns under its names, and of each CSV file the user
// attached (the only host files a statement may read). Then file access is taken away, no
// extension may be installed or loaded, and the configuration is locked. A statement that binds here reads nothing
// but those tables and files: DuckDB resolves every name, file and function a statement reaches
// when it binds it, so what is refused here is never run anywhere.

export interface SandboxTable {
  names: string[];
  columns: { name: string; type: string }[];
}

export interface AttachedCsv {
  name: string;
  path: string;
}

export interface Sandbox {
  connection: DuckDBConnection;
  close(): void;
}

// it holds no rows: a statement's plan is all it makes
const MEMORY = duckdbBytes(64 * 1024 ** 2);

/**
 * Starts sandboxes. Starting a DuckDB takes about as long as judging a statement, so the next one
 * is started ahead, bare, once a statement is done with the last (see `startSpare`).
 */
export class Sandboxes {
  #spare: Promise<DuckDBInstance> | null = null;

  async open(tables: SandboxTable[], csvFiles: AttachedCsv[]): Promise<Sandbox> {
    const taken = this.#spare ?? start();
    this.#spare = null;
    return furnish(await taken, tables, csvFiles);
  }

  /** Starts the next sandbox's DuckDB, unless one waits already: after a statement, not beside it. */
  startSpare(): void {
    if (this.#spare !== null) return;
    this.#spare = start();
    this.#spare.catch(() => undefined); // a failure shows when it is taken
  }

  /** Once the spare (if one is being started) is ready. */
  async ready(): Promise<void> {
    await this.#spare?.catch(() => undefined);
  }

  async close(): Promise<void> {
    const spare = this.#spare;
    this.#spare = null;
    (await spare?.catch(() => null))?.closeSync();
  }
}

async function start(): Promise<DuckDBInstance> {
  return duckdbModule().DuckDBInstance.create(':memory:', {
    memory_limit: MEMORY,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
}

async function furnish(instance: DuckDBInstance, tables: SandboxTable[], csvFiles: AttachedCsv[]): Promise<Sandbox> {
  let connection: DuckDBConnection | null = null;
  try {
    connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    for (const table of tables) {
      const [name, ...aliases] = table.names;
      await connection.run(`CREATE TABLE ${q(name!)} (${table.columns.map((c) => `${q(c.name)} ${c.type}`).join(', ')})`);
      for (const alias of aliases) await connection.run(`CREATE VIEW ${q(alias)} AS SELECT * FROM ${q(name!)}`);
    }
    for (const csv of csvFiles) await connection.run(`CREATE TABLE ${q(csv.name)} AS ${csvSelect(csv)} LIMIT 0`);
    await connection.run('SET enable_external_access = false; SET lock_configuration = true');
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    throw error;
  }
  const opened = connection;
  return {
    connection: opened,
    close: () => {
      opened.closeSync();
      instance.closeSync();
    },
  };
}

/** The rows of an attached CSV file, as its view selects them (in the sandbox and where the statement runs). */
export function csvSelect(csv: AttachedCsv): string {
  return `SELECT * FROM read_csv(${quoteLiteral(csv.path)})`;
}
