import type { Database } from '../storage/duckdb.ts';
import { nowIso } from '../time.ts';

/** What the service knows of a table beyond its data: owner, privacy, size counted against the plan. */
export interface TableRecord {
  namespace: string;
  /** The name in SQL: `dataset_<name>` for CSV uploads, the name itself for created tables. */
  tableName: string;
  accountId: number;
  description: string;
  isPrivate: boolean;
  sizeBytes: number;
  /** The DuckDB file holding its data (as table `data`), in the tables folder. */
  file: string;
  createdAt: string;
  updatedAt: string;
}

export type NewTableRecord = Omit<TableRecord, 'createdAt' | 'updatedAt'>;

interface TableRow {
  namespace: string;
  table_name: string;
  account_id: number;
  description: string;
  is_private: boolean;
  size_bytes: bigint;
  file: string;
  created_at: string;
  updated_at: string;
  [column: string]: unknown;
}

function toRecord(row: TableRow): TableRecord {
  return {
    namespace: row.namespace,
    tableName: row.table_name,
    accountId: row.account_id,
    description: row.description,
    isPrivate: row.is_private,
    sizeBytes: Number(row.size_bytes),
    file: row.file,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class TableStore {
  #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async get(namespace: string, tableName: string): Promise<TableRecord | null> {
    const rows = await this.#db.read<TableRow>(`SELECT * FROM uploaded_tables WHERE namespace = ? AND table_name = ?`, [
      namespace,
      tableName,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(accountId: number, limit: number, offset: number): Promise<TableRecord[]> {
    const rows = await this.#db.read<TableRow>(
      `SELECT * FROM uploaded_tables WHERE account_id = ? ORDER BY namespace, table_name LIMIT ? OFFSET ?`,
      [accountId, limit, offset],
    );
    return rows.map(toRecord);
  }

  /** The tables SQL of this account may read: its own, and every other context's public ones. */
  /** Every public table, and the private ones of `accountId` (an id no account has: public ones only). */
  async readable(accountId: number): Promise<TableRecord[]> {
    const rows = await this.#db.rows<TableRow>(
      `SELECT * FROM uploaded_tables WHERE (account_id = ? OR NOT is_private) AND file IS NOT NULL
       ORDER BY namespace, table_name`,
      [accountId],
    );
    return rows.map(toRecord);
  }

  /** Every table, for start-up upkeep of the files. */
  async all(): Promise<TableRecord[]> {
    return (await this.#db.rows<TableRow>(`SELECT * FROM uploaded_tables`)).map(toRecord);
  }

  /** Bytes the account stores, leaving out one table (the one about to be replaced). */
  async storageUsed(accountId: number, except: { namespace: string; tableName: string } | null): Promise<number> {
    const rows = await this.#db.rows<{ used: bigint }>(
      `SELECT coalesce(sum(size_bytes), 0)::BIGINT AS used FROM uploaded_tables
       WHERE account_id = ? AND NOT (namespace = ? AND table_name = ?)`,
      [accountId, except?.namespace ?? '', except?.tableName ?? ''],
    );
    return Number(rows[0]?.used ?? 0);
  }

  /** Records a new table, or a changed one with its new description, privacy, size and file. */
  async put(record: NewTableRecord): Promise<void> {
    const now = nowIso();
    await this.#db.run(
      `INSERT INTO uploaded_tables (namespace, table_name, account_id, description, is_private, size_bytes, created_at, updated_at, file)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, table_name) DO UPDATE SET description = excluded.description,
         is_private = excluded.is_private, size_bytes = excluded.size_bytes, updated_at = excluded.updated_at, file = excluded.file`,
      [record.namespace, record.tableName, record.accountId, record.description, record.isPrivate, record.sizeBytes, now, now, record.file],
    );
  }

  async remove(namespace: string, tableName: string): Promise<void> {
    await this.#db.run(`DELETE FROM uploaded_tables WHERE namespace = ? AND table_name = ?`, [namespace, tableName]);
  }
}
