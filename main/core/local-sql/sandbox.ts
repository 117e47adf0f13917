import type { DuckDBConnection } from '@duckdb/node-api';
import { duckdbBytes, LOCAL_SQL_DUCKDB_BYTES } from '../../common/memory-budgets.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';

// Where local SQL runs: an in-memory DuckDB of its own for each statement, which holds the copies
// of the cached results it names (attached read-only, each seen as a view under its names), the
// CSV files the user attached (the only host files it may read), and the file its answer is
// written to. Then file access is taken away and the configuration locked, so the statement can
// reach no other file, no network and no extension, whatever it holds.

export interface SandboxTable {
  names: string[];
  /** The copy of the cached result (see table-copies.ts). */
  file: string;
}

export interface AttachedCsv {
  name: string;
  path: string;
}

export interface Sandbox {
  connection: DuckDBConnection;
  /** The catalog the answer's table is written to. */
  output: string;
  close(): void;
}

const OUTPUT = 'local sql output';

export async function openSandbox(tables: SandboxTable[], csvFiles: AttachedCsv[], outputFile: string, tempDir: string): Promise<Sandbox> {
  // loaded here, as the cache's: the hosts answer their first screen before DuckDB is needed
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: duckdbBytes(LOCAL_SQL_DUCKDB_BYTES),
    temp_directory: tempDir,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  let connection: DuckDBConnection | null = null;
  try {
    connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    for (const [i, table] of tables.entries()) {
      const attached = q(`cached ${i}`);
      await connection.run(`ATTACH ${quoteLiteral(table.file)} AS ${attached} (READ_ONLY)`);
      for (const name of table.names) await connection.run(`CREATE VIEW ${q(name)} AS SELECT * FROM ${attached}.main.data`);
    }
    if (csvFiles.length > 0) await connection.run(`SET allowed_paths = [${csvFiles.map((f) => quoteLiteral(f.path)).join(', ')}]`);
    for (const csv of csvFiles) await connection.run(`CREATE VIEW ${q(csv.name)} AS SELECT * FROM read_csv(${quoteLiteral(csv.path)})`);
    await connection.run(`ATTACH ${quoteLiteral(outputFile)} AS ${q(OUTPUT)}`);
    await connection.run('SET enable_external_access = false; SET lock_configuration = true');
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    throw error;
  }
  const opened = connection;
  return {
    connection: opened,
    output: q(OUTPUT),
    close: () => {
      opened.closeSync();
      instance.closeSync();
    },
  };
}
