import { hasResult, STATES_WITH_RESULT } from '../../common/dune-states.ts';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { Database } from '../storage/duckdb.ts';

export const STATE = {
  pending: 'QUERY_STATE_PENDING',
  executing: 'QUERY_STATE_EXECUTING',
  completed: 'QUERY_STATE_COMPLETED',
  completedPartial: 'QUERY_STATE_COMPLETED_PARTIAL',
  failed: 'QUERY_STATE_FAILED',
  cancelled: 'QUERY_STATE_CANCELLED',
  expired: 'QUERY_STATE_EXPIRED',
} as const;
export type ExecutionState = (typeof STATE)[keyof typeof STATE];

const WITH_RESULT_PLACES = STATES_WITH_RESULT.map(() => '?').join(', ');

export const UNFINISHED_STATES: readonly ExecutionState[] = [STATE.pending, STATE.executing];

export interface ExecutionError {
  type: string;
  message: string;
  line?: number;
  column?: number;
}

export interface ResultSummary {
  columnNames: string[];
  /** DuckDB's type names, as stored; the API shows them lowercased. */
  columnTypes: string[];
  rowCount: number;
  bytes: number;
  pendingMillis: number;
  executionMillis: number;
}

// A run of SQL text (`POST /sql/execute`) belongs to no query; no query has this id.
const NO_QUERY = 0;

export interface Execution {
  id: string;
  /** Null for a run of SQL text rather than of a stored query. */
  queryId: number | null;
  accountId: number;
  parameters: Record<string, string>;
  performance: string;
  state: ExecutionState;
  submittedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  cancelledAt: string | null;
  expiresAt: string | null;
  error: ExecutionError | null;
  result: ResultSummary | null;
}

interface ExecutionRow {
  id: string;
  query_id: number;
  account_id: number;
  parameters: string;
  performance: string;
  state: string;
  submitted_at: string;
  started_at: string | null;
  ended_at: string | null;
  cancelled_at: string | null;
  expires_at: string | null;
  error_type: string | null;
  error_message: string | null;
  error_line: number | null;
  error_column: number | null;
  column_names: string | null;
  column_types: string | null;
  row_count: bigint | null;
  result_bytes: bigint | null;
  pending_millis: bigint | null;
  execution_millis: bigint | null;
  [column: string]: unknown;
}

function toExecution(row: ExecutionRow): Execution {
  const error: ExecutionError | null = row.error_type === null ? null : { type: row.error_type, message: row.error_message ?? '' };
  if (error && row.error_line !== null) error.line = row.error_line;
  if (error && row.error_column !== null) error.column = row.error_column;
  return {
    id: row.id,
    queryId: row.query_id === NO_QUERY ? null : row.query_id,
    accountId: row.account_id,
    parameters: JSON.parse(row.parameters) as Record<string, string>,
    performance: row.performance,
    state: row.state as ExecutionState,
    submittedAt: row.submitted_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    cancelledAt: row.cancelled_at,
    expiresAt: row.expires_at,
    error,
    result:
      row.column_names === null
        ? null
        : {
            columnNames: JSON.parse(row.column_names) as string[],
            columnTypes: JSON.parse(row.column_types ?? '[]') as string[],
            rowCount: Number(row.row_count ?? 0),
            bytes: Number(row.result_bytes ?? 0),
            pendingMillis: Number(row.pending_millis ?? 0),
            executionMillis: Number(row.execution_millis ?? 0),
          },
  };
}

/** Parameter values as stored: keys sorted, so equal sets of values compare equal as text. */
function canonicalParameters(values: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

const IN_UNFINISHED = `state IN ('${STATE.pending}', '${STATE.executing}')`;

/**
 * Execution records. Every state change is conditional on the state it leaves, so a cancel and
 * a completion racing each other cannot both win.
 */
// Completed executions kept in memory: every read of a result asks for its execution, and one that
// completed changes only once more, when it expires.
const KEPT_COMPLETED = SERVICE_CACHES.completedExecutions;

export class ExecutionStore {
  #db: Database;
  /** Completed executions read lately, least recent first; frozen, as callers share them. */
  readonly #completed = new BoundedCache<string, Readonly<Execution>>({ entries: KEPT_COMPLETED });
  /** Counts expiries, so that a read that began before one does not keep what it read. */
  #expiries = 0;

  constructor(db: Database) {
    this.#db = db;
  }

  /** `queryVersion`: the stored query's version it runs, for the latest result of the latest version. */
  async insert(
    e: Pick<Execution, 'id' | 'queryId' | 'accountId' | 'parameters' | 'performance' | 'submittedAt'> & { queryVersion?: number },
  ): Promise<void> {
    await this.#db.run(
      `INSERT INTO executions (id, query_id, account_id, parameters, performance, state, submitted_at, query_version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        e.id,
        e.queryId ?? NO_QUERY,
        e.accountId,
        canonicalParameters(e.parameters),
        e.performance,
        STATE.pending,
        e.submittedAt,
        e.queryVersion ?? null,
      ],
    );
  }

  async get(id: string): Promise<Execution | null> {
    const kept = this.#completed.get(id);
    if (kept) return kept;
    const expiries = this.#expiries;
    const rows = await this.#db.read<ExecutionRow>(`SELECT * FROM executions WHERE id = ?`, [id]);
    if (!rows[0]) return null;
    const execution = toExecution(rows[0]);
    if (hasResult(execution.state) && expiries === this.#expiries) {
      this.#completed.set(id, Object.freeze(execution));
    }
    return execution;
  }

  async markExecuting(id: string, startedAt: string): Promise<boolean> {
    return this.#update(`SET state = ?, started_at = ? WHERE id = ? AND state = ?`, [STATE.executing, startedAt, id, STATE.pending]);
  }

  async complete(id: string, state: ExecutionState, endedAt: string, expiresAt: string, summary: ResultSummary): Promise<boolean> {
    return this.#update(
      `SET state = ?, ended_at = ?, expires_at = ?, column_names = ?, column_types = ?, row_count = ?,
         result_bytes = ?, pending_millis = ?, execution_millis = ?
       WHERE id = ? AND state = ?`,
      [
        state,
        endedAt,
        expiresAt,
        JSON.stringify(summary.columnNames),
        JSON.stringify(summary.columnTypes),
        summary.rowCount,
        summary.bytes,
        summary.pendingMillis,
        summary.executionMillis,
        id,
        STATE.executing,
      ],
    );
  }

  async fail(id: string, endedAt: string, expiresAt: string, error: ExecutionError): Promise<boolean> {
    return this.#update(
      `SET state = ?, ended_at = ?, expires_at = ?, error_type = ?, error_message = ?, error_line = ?,
         error_column = ? WHERE id = ? AND ${IN_UNFINISHED}`,
      [STATE.failed, endedAt, expiresAt, error.type, error.message, error.line ?? null, error.column ?? null, id],
    );
  }

  /** `endedAt` only when the execution had started running. */
  async cancel(id: string, cancelledAt: string, endedAt: string | null, expiresAt: string): Promise<boolean> {
    return this.#update(`SET state = ?, cancelled_at = ?, ended_at = ?, expires_at = ? WHERE id = ? AND ${IN_UNFINISHED}`, [
      STATE.cancelled,
      cancelledAt,
      endedAt,
      expiresAt,
      id,
    ]);
  }

  async expire(id: string, at: string): Promise<boolean> {
    try {
      return await this.#update(
        `SET state = ?, expired_at = ? WHERE id = ? AND state IN ('${STATE.completed}', '${STATE.completedPartial}')`,
        [STATE.expired, at, id],
      );
    } finally {
      // after the change: a read that saw the execution completed, and ends later, keeps nothing
      this.#expiries++;
      this.#completed.delete(id);
    }
  }

  async dueForExpiry(now: string): Promise<string[]> {
    const rows = await this.#db.rows<{ id: string }>(
      `SELECT id FROM executions WHERE state IN (${WITH_RESULT_PLACES}) AND expires_at <= ?`,
      [...STATES_WITH_RESULT, now],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The latest execution of the query with a stored result, started by one of `startedBy`; with
   * `parameters`, the latest run with exactly those values.
   */
  /**
   * The latest run of `version` of the query with a result, by one of `startedBy`. Runs made before
   * versions were kept with them count as the latest version's, as they did then.
   */
  async latestWithResult(
    queryId: number,
    version: number,
    parameters: Record<string, string> | null,
    startedBy: number[],
  ): Promise<Execution | null> {
    const params: (string | number)[] = [queryId, version, STATE.completed, STATE.completedPartial, STATE.expired, ...startedBy];
    if (parameters) params.push(canonicalParameters(parameters));
    const rows = await this.#db.rows<ExecutionRow>(
      `SELECT * FROM executions WHERE query_id = ? AND (query_version = ? OR query_version IS NULL) AND state IN (?, ?, ?)
       AND account_id IN (${startedBy.map(() => '?').join(', ')}) ${parameters ? 'AND parameters = ?' : ''} ORDER BY ended_at DESC LIMIT 1`,
      params,
    );
    return rows[0] ? toExecution(rows[0]) : null;
  }

  /** The executions that completed with a result (whole or partial). */
  async idsWithResult(): Promise<Set<string>> {
    const rows = await this.#db.rows<{ id: string }>(`SELECT id FROM executions WHERE state IN (${WITH_RESULT_PLACES})`, [
      ...STATES_WITH_RESULT,
    ]);
    return new Set(rows.map((row) => row.id));
  }

  /** At start: whatever was running when the process stopped can never finish now. */
  async failUnfinished(endedAt: string, expiresAt: string, message: string): Promise<void> {
    await this.#db.run(
      `UPDATE executions SET state = ?, ended_at = ?, expires_at = ?, error_type = ?, error_message = ?
       WHERE ${IN_UNFINISHED}`,
      [STATE.failed, endedAt, expiresAt, 'FAILED_TYPE_EXECUTION_FAILED', message],
    );
  }

  async #update(tail: string, params: (string | number | null)[]): Promise<boolean> {
    const rows = await this.#db.rows(`UPDATE executions ${tail} RETURNING id`, params);
    return rows.length > 0;
  }
}
