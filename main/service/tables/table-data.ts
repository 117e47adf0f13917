import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier as q, type Database } from '../storage/duckdb.ts';

export interface TableColumn {
  name: string;
  type: string;
  nullable: boolean;
}

export type SourceFormat = 'csv' | 'ndjson';

/**
 * The data of uploaded tables, in the database user SQL reads. Files are read by a separate
 * DuckDB (the only one with file access) and streamed in; every change lands whole or not at all:
 * data is staged in a table of its own first, then swapped or inserted in one transaction.
 */
export class TableData {
  #tables: Database;
  #files: Database;

  constructor(tables: Database, files: Database) {
    this.#tables = tables;
    this.#files = files;
  }

  /**
   * Reads the file into a new staging table in `schema`; the caller swaps, inserts or drops it.
   * `allText` keeps CSV values as text, for an insert to convert them to the target's types.
   */
  async stage(schema: string, path: string, format: SourceFormat, allText: boolean): Promise<{ staging: string; columns: string[]; rows: number }> {
    const staging = `staging_${randomBytes(8).toString('hex')}`;
    const reader = await this.#files.connect();
    const writer = await this.#tables.connect();
    try {
      const file = path.replaceAll("'", "''");
      const source =
        format === 'csv'
          ? `read_csv('${file}', header = true${allText ? ', all_varchar = true' : ''})`
          : `read_json('${file}', format = 'newline_delimited')`;
      const result = await reader.stream(`SELECT * FROM ${source}`);
      const columns = result.columnNames();
      const types = result.columnTypes().map((t) => (allText ? 'VARCHAR' : t.toString()));
      await writer.run(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`);
      await writer.run(`CREATE TABLE ${q(schema)}.${q(staging)} (${columns.map((c, i) => `${q(c)} ${types[i]}`).join(', ')})`);
      const appender = await writer.createAppender(staging, schema);
      let rows = 0;
      try {
        for await (const chunk of result) {
          appender.appendDataChunk(chunk);
          rows += chunk.rowCount;
        }
      } finally {
        appender.closeSync();
      }
      return { staging, columns, rows };
    } catch (error) {
      await writer.run(`DROP TABLE IF EXISTS ${q(schema)}.${q(staging)}`).catch(() => undefined);
      throw error;
    } finally {
      this.#files.release(reader);
      this.#tables.release(writer);
    }
  }

  /** The staged table takes the target's name; the old table goes in the same transaction. */
  async replace(schema: string, staging: string, target: string): Promise<void> {
    await this.#inTransaction(async (c) => {
      await c.run(`DROP TABLE IF EXISTS ${q(schema)}.${q(target)}`);
      await c.run(`ALTER TABLE ${q(schema)}.${q(staging)} RENAME TO ${q(target)}`);
    });
  }

  /** Inserts the staged rows by column name, converting to the target's types, then drops the stage. */
  async insertFrom(schema: string, staging: string, target: string): Promise<void> {
    try {
      await this.#inTransaction((c) => c.run(`INSERT INTO ${q(schema)}.${q(target)} BY NAME SELECT * FROM ${q(schema)}.${q(staging)}`));
    } finally {
      await this.drop(schema, staging);
    }
  }

  async create(schema: string, table: string, columns: TableColumn[]): Promise<void> {
    const definitions = columns.map((c) => `${q(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`).join(', ');
    await this.#inTransaction(async (c) => {
      await c.run(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`);
      await c.run(`CREATE TABLE ${q(schema)}.${q(table)} (${definitions})`);
    });
  }

  async clear(schema: string, table: string): Promise<void> {
    await this.#tables.run(`DELETE FROM ${q(schema)}.${q(table)}`);
  }

  async drop(schema: string, table: string): Promise<void> {
    await this.#tables.run(`DROP TABLE IF EXISTS ${q(schema)}.${q(table)}`);
  }

  async columns(schema: string, table: string): Promise<TableColumn[]> {
    const rows = await this.#tables.rows<{ column_name: string; data_type: string; is_nullable: boolean }>(
      `SELECT column_name, data_type, is_nullable FROM duckdb_columns()
       WHERE database_name = current_database() AND schema_name = ? AND table_name = ? ORDER BY column_index`,
      [schema, table],
    );
    return rows.map((r) => ({ name: r.column_name, type: r.data_type, nullable: r.is_nullable }));
  }

  async #inTransaction(work: (connection: DuckDBConnection) => Promise<unknown>): Promise<void> {
    const connection = await this.#tables.connect();
    try {
      await connection.run('BEGIN TRANSACTION');
      try {
        await work(connection);
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK');
        throw error;
      }
    } finally {
      this.#tables.release(connection);
    }
  }
}

/** Deletes a temporary file, whatever happened to it. */
export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true });
}
