import { randomBytes } from 'node:crypto';
import { copyFile, rm, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { KeyedSerialQueue } from '../../common/serial-queue.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { notFound } from '../http/http-error.ts';
import { checkpoint } from '../storage/checkpoint.ts';
import { assertRoom, DATA_FLOOR_BYTES } from '../storage/disk-full.ts';
import type { Database } from '../storage/duckdb.ts';
import { readCsvHeader } from './csv-header.ts';
import { csvColumnTypes } from './csv-types.ts';
import { checkLines, NO_OBJECTS } from './ndjson-lines.ts';
import { csvTextRead, ndjsonLinesRead, readError, type SourceFormat } from './source-reads.ts';
import { insertStaged } from './staged-rows.ts';
import { DATA, type TableFiles } from './table-files.ts';
import type { NewTableRecord, TableRecord, TableStore } from './table-store.ts';
import { readText } from './text-to-column.ts';

export interface TableColumn {
  name: string;
  type: string;
  nullable: boolean;
}

export type { SourceFormat } from './source-reads.ts';

/** Table files whose columns are remembered, the oldest forgotten first. */
const REMEMBERED_FILES = SERVICE_CACHES.tableColumns;

/**
 * The data of uploaded tables, one DuckDB file per table (see TableFiles), written through a
 * DuckDB of its own that has file access and never runs user SQL. Every change writes a new file
 * and then points the table's record at it, so it lands whole or not at all; changes to one table
 * take turns, which also keeps its file attached here at most once at a time.
 */
export class TableData {
  #files: Database;
  #store: TableStore;
  #tableFiles: TableFiles;
  readonly #turns = new KeyedSerialQueue();
  // A file's columns never change (every change to a table writes a new file), so each file's are
  // read once: listing the tables attached every file again, slow with many tables.
  readonly #columns = new BoundedCache<string, TableColumn[]>({ entries: REMEMBERED_FILES });
  /** Files staged for an insert, by what they hold: a CSV's values as text, or an NDJSON file's lines. */
  readonly #stagedAs = new Map<string, SourceFormat>();

  constructor(files: Database, store: TableStore, tableFiles: TableFiles) {
    this.#files = files;
    this.#store = store;
    this.#tableFiles = tableFiles;
  }

  /**
   * Reads the uploaded file into a new table file, not yet any table's: `publish`, `insert` or
   * `discard` it. A CSV upload's columns get the types its values hold exactly (csv-types.ts);
   * `allText` keeps a CSV's values as text instead, and an NDJSON file is kept as its lines, for an
   * insert to read them into the table's types. Refused, with the line and the reason, when the
   * file is not strictly CSV (or NDJSON: one JSON object a line) or its header cannot name columns.
   */
  async stage(path: string, format: SourceFormat, allText: boolean): Promise<{ file: string; columns: string[]; rows: number }> {
    // a table's file takes about what its text did, or less
    const { size } = await stat(path);
    assertRoom(this.#tableFiles.dir, DATA_FLOOR_BYTES, size);
    const file = this.#tableFiles.newName();
    try {
      if (format === 'ndjson') {
        const staged = await this.#stageLines(path, file, size);
        this.#stagedAs.set(file, 'ndjson');
        return { file, ...staged };
      }
      const names = await readCsvHeader(path);
      const read = csvTextRead(path, names);
      const { rows, columns } = await this.#withFiles([{ file, readOnly: false }], async (c, [alias]) => {
        const types = allText ? names.map(() => 'VARCHAR') : await csvColumnTypes(c, read, names);
        const values = names.map((name, i) => `${readText(q(name), types[i]!).value} AS ${q(name)}`);
        await c.run(`CREATE TABLE ${alias}.${DATA} AS SELECT ${values.join(', ')} FROM ${read}`);
        return { rows: await countRows(c, alias!), columns: await columnsAttached(c, alias!) };
      });
      this.#columns.set(file, columns);
      if (allText) this.#stagedAs.set(file, 'csv');
      return { file, columns: columns.map((c) => c.name), rows };
    } catch (error) {
      await this.discard(file);
      throw readError(error, format);
    }
  }

  /** Stages an NDJSON file's lines, each checked to be one JSON object; the keys they name are its columns. */
  async #stageLines(path: string, file: string, size: number): Promise<{ columns: string[]; rows: number }> {
    if (size === 0) throw new Error(NO_OBJECTS);
    return this.#withFiles([{ file, readOnly: false }], async (c, [alias]) => {
      const lines = `${alias}.${DATA}`;
      await c.run(`CREATE TABLE ${lines} AS SELECT * FROM ${ndjsonLinesRead(path)}`);
      return checkLines(c, lines);
    });
  }

  /** A new empty table file with these columns. */
  async create(columns: TableColumn[]): Promise<string> {
    const file = this.#tableFiles.newName();
    const definitions = columns.map((c) => `${q(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`).join(', ');
    try {
      await this.#withFiles([{ file, readOnly: false }], (c, [alias]) => c.run(`CREATE TABLE ${alias}.${DATA} (${definitions})`));
    } catch (error) {
      await this.discard(file);
      throw error;
    }
    return file;
  }

  /** Makes the record (and its file) the table's, in one step; the file it had is retired. */
  async publish(record: NewTableRecord): Promise<void> {
    await this.#inTurn(record, async () => {
      const old = await this.#store.get(record.namespace, record.tableName);
      await this.#point(record, old?.file === record.file ? null : record.file);
      if (old && old.file !== record.file) this.#tableFiles.retire(old.file);
    });
  }

  /** Records the table; a new file the record could not be pointed at (a full disk) is no one's, and goes. */
  async #point(record: NewTableRecord, newFile: string | null): Promise<void> {
    try {
      await this.#store.put(record);
    } catch (error) {
      if (newFile !== null) await this.discard(newFile);
      throw error;
    }
  }

  /**
   * Adds the staged rows (`stage`, as text) by column name, each value read into its column's type
   * exactly, into a copy that then replaces the table's file: every row, or none and the first
   * value that could not be read.
   */
  async insert(table: TableRecord, staged: string, bytes: number): Promise<void> {
    const format = this.#stagedAs.get(staged);
    try {
      if (!format) throw new Error('the rows to insert were not staged as text');
      await this.#inTurn(table, async () => {
        const current = await this.#current(table);
        const file = this.#tableFiles.newName();
        try {
          const sizes = await Promise.all([current.file, staged].map(async (name) => (await stat(this.#tableFiles.path(name))).size));
          assertRoom(this.#tableFiles.dir, DATA_FLOOR_BYTES, sizes[0]! + sizes[1]!);
          await copyFile(this.#tableFiles.path(current.file), this.#tableFiles.path(file));
          const columns = await this.#columnsOf(current.file);
          await this.#withFiles(
            [
              { file, readOnly: false },
              { file: staged, readOnly: true },
            ],
            (c, [target, source]) => insertStaged(c, target!, source!, columns, format),
          );
        } catch (error) {
          await this.discard(file);
          throw error;
        }
        await this.#point({ ...current, sizeBytes: current.sizeBytes + bytes, file }, file);
        this.#tableFiles.retire(current.file);
      });
    } finally {
      await this.discard(staged);
    }
  }

  /** Replaces the table's file with an empty one of the same columns. */
  async clear(table: TableRecord): Promise<void> {
    await this.#inTurn(table, async () => {
      const current = await this.#current(table);
      const file = await this.create(await this.#columnsOf(current.file));
      await this.#point({ ...current, sizeBytes: 0, file }, file);
      this.#tableFiles.retire(current.file);
    });
  }

  async drop(table: TableRecord): Promise<void> {
    await this.#inTurn(table, async () => {
      const current = await this.#current(table);
      await this.#store.remove(current.namespace, current.tableName);
      this.#tableFiles.retire(current.file);
    });
  }

  /** The columns of a table, or of a staged file. */
  async columns(tableOrFile: TableRecord | string): Promise<TableColumn[]> {
    if (typeof tableOrFile === 'string') return this.#columnsOf(tableOrFile);
    return this.#inTurn(tableOrFile, async () => this.#columnsOf((await this.#current(tableOrFile)).file));
  }

  async discard(file: string): Promise<void> {
    this.#stagedAs.delete(file);
    for (const name of [file, `${file}.wal`]) await rm(this.#tableFiles.path(name), { force: true });
  }

  async #columnsOf(file: string): Promise<TableColumn[]> {
    const known = this.#columns.get(file);
    if (known) return known.map((column) => ({ ...column }));
    const columns = await this.#readColumns(file);
    this.#columns.set(file, columns);
    return columns.map((column) => ({ ...column }));
  }

  async #readColumns(file: string): Promise<TableColumn[]> {
    return this.#withFiles([{ file, readOnly: true }], (c, [alias]) => columnsAttached(c, alias!));
  }

  async #current(table: TableRecord): Promise<TableRecord> {
    const current = await this.#store.get(table.namespace, table.tableName);
    // Deleted by a request that went first: the same answer as for a table that was never there.
    if (!current) throw notFound(`table ${table.namespace}.${table.tableName} not found`);
    return current;
  }

  /** Runs `work` once every earlier change of the same table has finished. */
  #inTurn<T>(table: Pick<TableRecord, 'namespace' | 'tableName'>, work: () => Promise<T>): Promise<T> {
    return this.#turns.run(`${table.namespace}.${table.tableName}`, work);
  }

  /** Attaches the files under fresh names, runs `work`, and detaches them, writing written ones out whole. */
  async #withFiles<T>(
    files: { file: string; readOnly: boolean }[],
    work: (c: DuckDBConnection, aliases: string[]) => Promise<T>,
  ): Promise<T> {
    const connection = await this.#files.connect();
    const attached: { alias: string; readOnly: boolean }[] = [];
    try {
      for (const { file, readOnly } of files) {
        const alias = q(`f_${randomBytes(8).toString('hex')}`);
        await connection.run(`ATTACH ${quoteLiteral(this.#tableFiles.path(file))} AS ${alias}${readOnly ? ' (READ_ONLY)' : ''}`);
        attached.push({ alias, readOnly });
      }
      const result = await work(
        connection,
        attached.map((a) => a.alias),
      );
      for (const { alias, readOnly } of attached) if (!readOnly) await checkpoint(connection, alias);
      return result;
    } finally {
      for (const { alias } of attached) await connection.run(`DETACH ${alias}`).catch(() => undefined);
      this.#files.release(connection);
    }
  }
}

async function countRows(c: DuckDBConnection, alias: string): Promise<number> {
  const counted = await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${alias}.${DATA}`);
  return counted.getRowObjectsJS()[0]!.n as number;
}

/**
 * The columns of the data table of the file attached as `alias`. Read from that table alone: a
 * scan of the catalog (duckdb_columns) holds every attached file while it runs, and a file
 * detached meanwhile on another connection stays held, so attaching it again then failed.
 */
async function columnsAttached(c: DuckDBConnection, alias: string): Promise<TableColumn[]> {
  const reader = await c.runAndReadAll(`SELECT name, type, "notnull" FROM pragma_table_info(?)`, [`${alias}.${DATA}`]);
  const rows = reader.getRowObjectsJS() as { name: string; type: string; notnull: boolean }[];
  return rows.map((r) => ({ name: r.name, type: r.type, nullable: !r.notnull }));
}

/** Deletes a temporary file, whatever happened to it. */
export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true });
}
