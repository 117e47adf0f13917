import type { Database } from '../storage/duckdb.ts';
import { nowIso } from '../time.ts';

export const PARAMETER_TYPES = ['text', 'number', 'datetime', 'enum'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** A parameter definition as the real service's query records carry it (camelCase keys included). */
export interface ParameterDefinition {
  key: string;
  type: ParameterType;
  value: string;
  description?: string;
  enumOptions?: string[];
  isMultiselect?: boolean;
  isFreeformAllowed?: boolean;
  /** The options are the values of a column of another query's results. */
  enumFromResults?: { queryId: number; columnName: string };
  values?: string[];
}

export interface StoredQuery {
  id: number;
  ownerId: number;
  owner: string;
  name: string;
  description: string;
  tags: string[];
  sql: string;
  parameters: ParameterDefinition[];
  version: number;
  isPrivate: boolean;
  isArchived: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NewQuery {
  ownerId: number;
  name: string;
  description: string;
  tags: string[];
  sql: string;
  parameters: ParameterDefinition[];
  isPrivate: boolean;
}

/** What an update may change; a field left out stays as it is. */
export type QueryFields = Partial<Omit<NewQuery, 'ownerId'>> & { isArchived?: boolean };

interface QueryRow {
  id: number;
  owner_id: number;
  owner: string;
  name: string;
  description: string;
  tags: string;
  query_sql: string;
  parameters: string;
  version: number;
  is_private: boolean;
  is_archived: boolean;
  created_at: string;
  updated_at: string;
  [column: string]: unknown;
}

const SELECT_QUERY = `SELECT q.*, a.handle AS owner FROM queries q JOIN accounts a ON a.id = q.owner_id`;

function toQuery(row: QueryRow): StoredQuery {
  return {
    id: row.id,
    ownerId: row.owner_id,
    owner: row.owner,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    sql: row.query_sql,
    parameters: JSON.parse(row.parameters) as ParameterDefinition[],
    version: row.version,
    isPrivate: row.is_private,
    isArchived: row.is_archived,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class QueryStore {
  #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async get(id: number): Promise<StoredQuery | null> {
    const rows = await this.#db.read<QueryRow>(`${SELECT_QUERY} WHERE q.id = ?`, [id]);
    return rows[0] ? toQuery(rows[0]) : null;
  }

  async listByOwner(ownerId: number, limit: number, offset: number): Promise<{ queries: StoredQuery[]; total: number }> {
    const rows = await this.#db.read<QueryRow>(`${SELECT_QUERY} WHERE q.owner_id = ? ORDER BY q.id LIMIT ? OFFSET ?`, [
      ownerId,
      limit,
      offset,
    ]);
    const count = await this.#db.read<{ n: bigint }>(`SELECT count(*) AS n FROM queries WHERE owner_id = ?`, [ownerId]);
    return { queries: rows.map(toQuery), total: Number(count[0]?.n ?? 0) };
  }

  /**
   * Applies the fields given. An edit of the query itself is a new version, as the real service
   * counts them; archiving it or making it private is not, so its latest results stay its latest.
   */
  async update(id: number, fields: QueryFields): Promise<void> {
    const edits: [string, unknown][] = [
      ['name', fields.name],
      ['description', fields.description],
      ['tags', fields.tags && JSON.stringify(fields.tags)],
      ['query_sql', fields.sql],
      ['parameters', fields.parameters && JSON.stringify(fields.parameters)],
    ];
    const flags: [string, unknown][] = [
      ['is_private', fields.isPrivate],
      ['is_archived', fields.isArchived],
    ];
    const given = [...edits, ...flags].filter(([, value]) => value !== undefined) as [string, string | boolean][];
    if (given.length === 0) return;
    const version = edits.some(([, value]) => value !== undefined) ? 'version = version + 1, ' : '';
    await this.#db.run(`UPDATE queries SET ${given.map(([column]) => `${column} = ?, `).join('')}${version}updated_at = ? WHERE id = ?`, [
      ...given.map(([, value]) => value),
      nowIso(),
      id,
    ]);
  }

  async create(query: NewQuery): Promise<number> {
    const now = nowIso();
    const rows = await this.#db.rows<{ id: number }>(
      `INSERT INTO queries (owner_id, name, description, tags, query_sql, parameters, version,
         is_private, is_archived, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 1, ?, false, ?, ?) RETURNING id`,
      [
        query.ownerId,
        query.name,
        query.description,
        JSON.stringify(query.tags),
        query.sql,
        JSON.stringify(query.parameters),
        query.isPrivate,
        now,
        now,
      ],
    );
    return rows[0]!.id;
  }
}
