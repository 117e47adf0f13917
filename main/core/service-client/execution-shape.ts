import { readBoolean, readInt, readNumber, readObject, readString, readStringArray, type JsonObject } from './wire-read.ts';

// The fields the status and results endpoints share, read tolerantly: only `execution_id` and
// `state` are required; everything else may be absent or new.

export interface ExecutionFailure {
  type: string;
  message: string;
  line: number | null;
  column: number | null;
}

export interface ResultMetadata {
  columnNames: string[] | null;
  columnTypes: string[] | null;
  rowCount: number | null;
  resultSetBytes: number | null;
  totalRowCount: number | null;
  totalResultSetBytes: number | null;
  datapointCount: number | null;
  pendingTimeMillis: number | null;
  executionTimeMillis: number | null;
}

export interface ExecutionFields {
  executionId: string;
  queryId: number | null;
  /** The wire string, passed through even when it is a state this client does not know. */
  state: string;
  /** As the service said it; null when it did not say. */
  isExecutionFinished: boolean | null;
  submittedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  expiresAt: string | null;
  cancelledAt: string | null;
  error: ExecutionFailure | null;
}

export function readExecutionFields(body: JsonObject): ExecutionFields | null {
  const executionId = readString(body, 'execution_id');
  const state = readString(body, 'state');
  if (executionId === null || state === null) return null;
  return {
    executionId,
    queryId: readInt(body, 'query_id'),
    state,
    isExecutionFinished: readBoolean(body, 'is_execution_finished'),
    submittedAt: readString(body, 'submitted_at'),
    startedAt: readString(body, 'execution_started_at'),
    endedAt: readString(body, 'execution_ended_at'),
    expiresAt: readString(body, 'expires_at'),
    cancelledAt: readString(body, 'cancelled_at'),
    error: readFailure(readObject(body, 'error')),
  };
}

function readFailure(error: JsonObject | null): ExecutionFailure | null {
  if (error === null) return null;
  const metadata = readObject(error, 'metadata');
  return {
    type: readString(error, 'type') ?? 'unknown',
    message: readString(error, 'message') ?? 'The execution failed without a message.',
    line: metadata === null ? null : readInt(metadata, 'line'),
    column: metadata === null ? null : readInt(metadata, 'column'),
  };
}

export function readResultMetadata(metadata: JsonObject | null): ResultMetadata | null {
  if (metadata === null) return null;
  return {
    columnNames: readStringArray(metadata, 'column_names'),
    columnTypes: readStringArray(metadata, 'column_types'),
    rowCount: readInt(metadata, 'row_count'),
    resultSetBytes: readNumber(metadata, 'result_set_bytes'),
    totalRowCount: readInt(metadata, 'total_row_count'),
    totalResultSetBytes: readNumber(metadata, 'total_result_set_bytes'),
    datapointCount: readInt(metadata, 'datapoint_count'),
    pendingTimeMillis: readNumber(metadata, 'pending_time_millis'),
    executionTimeMillis: readNumber(metadata, 'execution_time_millis'),
  };
}
