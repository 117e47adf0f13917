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
  createdAt: string;
  updatedAt: string;
}

interface TableRow {
  namespace: string;
  table_name: string;
  account_id: number;
  description: string;
  is_private: boolean;
  size_bytes: bigint;
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
    const rows = await this.#db.rows<TableRow>(`SELECT * FROM uploaded_tables WHERE namespace = ? AND table_name = ?`, [
      namespace,
      tableName,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(accountId: number, limit: number, offset: number): Promise<TableRecord[]> {
    const rows = await this.#db.rows<TableRow>(
      `SELECT * FROM uploaded_tables WHERE account_id = ? ORDER BY namespace, table_name LIMIT ? OFFSET ?`,
      [accountId, limit, offset],
    );
    return rows.map(toRecord);
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

  /** Records a new table, or a replaced one with its new description, privacy and size. */
  async put(record: Omit<TableRecord, 'createdAt' | 'updatedAt'>): Promise<void> {
    const now = nowIso();
    await this.#db.run(
      `INSERT INTO uploaded_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, table_name) DO UPDATE SET description = excluded.description,
         is_private = excluded.is_private, size_bytes = excluded.size_bytes, updated_at = excluded.updated_at`,
      [record.namespace, record.tableName, record.accountId, record.description, record.isPrivate, record.sizeBytes, now, now],
    );
  }

  async grow(namespace: string, tableName: string, bytes: number): Promise<void> {
    await this.#db.run(
      `UPDATE uploaded_tables SET size_bytes = size_bytes + ?, updated_at = ? WHERE namespace = ? AND table_name = ?`,
      [bytes, nowIso(), namespace, tableName],
    );
  }

  async remove(namespace: string, tableName: string): Promise<void> {
    await this.#db.run(`DELETE FROM uploaded_tables WHERE namespace = ? AND table_name = ?`, [namespace, tableName]);
  }
}
