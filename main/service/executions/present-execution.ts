import { hasResult, isTerminalState } from '../../common/dune-states.ts';
import { duneTypeOfDuckdb } from '../../common/dune-types/index.ts';
import { STATE, type Execution, type ResultSummary } from './execution-store.ts';

// The wire shapes of executions (notes §4.3 to §4.6). Optional fields are left out, never null:
// clients treat a present key as a value.

function errorBody(e: Execution) {
  if (!e.error) return undefined;
  const { type, message, line, column } = e.error;
  return line !== undefined && column !== undefined ? { type, message, metadata: { line, column } } : { type, message };
}

/** The fields shared by the status and results bodies. */
export function executionEnvelope(e: Execution): Record<string, unknown> {
  return withoutUndefined({
    execution_id: e.id,
    query_id: e.queryId,
    state: e.state,
    is_execution_finished: isTerminalState(e.state),
    submitted_at: e.submittedAt,
    expires_at: e.expiresAt ?? undefined,
    execution_started_at: e.startedAt ?? undefined,
    execution_ended_at: e.endedAt ?? undefined,
    cancelled_at: e.cancelledAt ?? undefined,
    error: errorBody(e),
  });
}

export interface PageFigures {
  rowCount: number;
  bytes: number;
  columnNames: string[];
  columnTypes: string[];
}

/**
 * Result metadata; `page` is what this response carries, the summary what is stored. Column types
 * are stored as DuckDB names them (the result's table is made of them) and sent in DuneSQL's names.
 */
export function resultMetadata(summary: ResultSummary, page: PageFigures) {
  return {
    column_names: page.columnNames,
    column_types: page.columnTypes.map(duneTypeOfDuckdb),
    row_count: page.rowCount,
    result_set_bytes: page.bytes,
    total_row_count: summary.rowCount,
    total_result_set_bytes: summary.bytes,
    datapoint_count: page.rowCount * page.columnNames.length,
    pending_time_millis: summary.pendingMillis,
    execution_time_millis: summary.executionMillis,
  };
}

export function statusBody(e: Execution, queuePosition: number | null, slots: { total: number; busy: number }): Record<string, unknown> {
  const summary = hasResult(e.state) ? e.result : null;
  return withoutUndefined({
    ...executionEnvelope(e),
    queue_position: queuePosition ?? undefined,
    // only when COMPLETED, as Dune (notes §4.3): a cut result's figures are on its pages, read with allow_partial_results
    result_metadata: summary && e.state === STATE.completed ? resultMetadata(summary, summary) : undefined,
    result: summary ? { result_set_size: summary.bytes } : undefined,
    execution_cost_credits: 0,
    max_inflight_interactive_executions: slots.total,
    max_inflight_interactive_reached: slots.busy,
  });
}

function withoutUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
