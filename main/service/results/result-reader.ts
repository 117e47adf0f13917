import type { DuckDBConnection } from '@duckdb/node-api';
import { PageWriter } from './page-writer.ts';
import type { ResultFiles, ResultTable } from './result-files.ts';

/** Reads stored results: a connection to the results DuckDB, each result attached while it is read. */
export class ResultReader {
  readonly files: ResultFiles;
  readonly pages: PageWriter;

  /** `pagesDir`: where DuckDB writes pages, each read back and removed at once, and the blocks of text kept. */
  constructor(files: ResultFiles, pagesDir: string) {
    this.files = files;
    this.pages = new PageWriter(files.db, pagesDir);
  }

  /** Runs `work` with the result's table attached, on a connection of its own. */
  withTable<T>(executionId: string, work: (connection: DuckDBConnection, table: string) => Promise<T>): Promise<T> {
    return this.withResult(executionId, (connection, table) => work(connection, table.sql));
  }

  /** As `withTable`, with the names of the result's table and of what its file keeps beside it. */
  withResult<T>(executionId: string, work: (connection: DuckDBConnection, table: ResultTable) => Promise<T>): Promise<T> {
    return this.files.use(executionId, (table) => this.withConnection((connection) => work(connection, table)));
  }

  #busy = 0;

  /** Reads under way, each on a connection. */
  get busy(): number {
    return this.#busy;
  }

  async withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    this.#busy++;
    try {
      const connection = await this.files.db.connect();
      try {
        return await work(connection);
      } finally {
        this.files.db.release(connection);
      }
    } finally {
      this.#busy--;
    }
  }
}
