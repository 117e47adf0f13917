import type { ExecutionUpdate, ResultSummary } from '../../contract/index.ts';
import type { ExecutionStatus, ResultMetadata } from '../service-client/index.ts';
import { isTerminal } from './states.ts';

// The contract's view of an execution, built from what the service last said.

export function toExecutionUpdate(accountId: string, status: ExecutionStatus, elapsedMs: number): ExecutionUpdate {
  return {
    accountId,
    executionId: status.executionId,
    queryId: status.queryId,
    state: status.state,
    isFinished: isTerminal(status.state, status.isExecutionFinished),
    queuePosition: status.queuePosition,
    submittedAt: status.submittedAt,
    startedAt: status.startedAt,
    endedAt: status.endedAt,
    expiresAt: status.expiresAt,
    elapsedMs: Math.max(0, Math.round(elapsedMs)),
    error:
      status.error === null
        ? null
        : {
            type: status.error.type,
            message: status.error.message,
            ...(status.error.line === null ? {} : { line: status.error.line }),
            ...(status.error.column === null ? {} : { column: status.error.column }),
          },
    result: status.resultMetadata === null ? null : toResultSummary(status.resultMetadata),
  };
}

export function toResultSummary(metadata: ResultMetadata): ResultSummary {
  return {
    columnNames: metadata.columnNames ?? [],
    columnTypes: metadata.columnTypes ?? [],
    totalRowCount: metadata.totalRowCount ?? metadata.rowCount ?? 0,
    totalBytes: Math.round(metadata.totalResultSetBytes ?? metadata.resultSetBytes ?? 0),
    executionTimeMillis: metadata.executionTimeMillis === null ? null : Math.round(metadata.executionTimeMillis),
    ...(metadata.datapointCount === null ? {} : { datapointCount: metadata.datapointCount }),
  };
}

/** What is known of an execution the moment the service accepted it. */
export function statusAfterExecute(executionId: string, state: string, queryId: number): ExecutionStatus {
  return {
    executionId,
    queryId,
    state,
    isExecutionFinished: null,
    submittedAt: null,
    startedAt: null,
    endedAt: null,
    expiresAt: null,
    cancelledAt: null,
    error: null,
    queuePosition: null,
    resultMetadata: null,
  };
}
