import type { ClientResult } from './errors.ts';
import { readExecutionFields, readResultMetadata, type ExecutionFields, type ResultMetadata } from './execution-shape.ts';
import type { Transport } from './request.ts';
import { isObject, readBoolean, readInt, readObject, readString } from './wire-read.ts';

// Starting, watching and cancelling executions: /query/{id}/execute and /execution/{id}/status|cancel.

export interface ExecuteArgs {
  queryId: number;
  /** Flat name → value; a multi-select enum takes a list. */
  queryParameters?: Record<string, string | string[]>;
  performance?: 'medium' | 'large';
  signal?: AbortSignal;
}

export interface ExecuteSqlArgs {
  /** The SQL as it runs: the service takes no parameters here. */
  sql: string;
  performance?: 'medium' | 'large';
  signal?: AbortSignal;
}

export interface ExecuteResponse {
  executionId: string;
  state: string;
}

export interface ExecutionStatus extends ExecutionFields {
  queuePosition: number | null;
  /** Present once completed. */
  resultMetadata: ResultMetadata | null;
}

export interface ExecutionsApi {
  execute(args: ExecuteArgs): Promise<ClientResult<ExecuteResponse>>;
  /** Runs SQL text without a stored query (`POST /sql/execute`). */
  executeSql(args: ExecuteSqlArgs): Promise<ClientResult<ExecuteResponse>>;
  status(executionId: string, options?: { signal?: AbortSignal }): Promise<ClientResult<ExecutionStatus>>;
  /** True when the service accepted the cancel. */
  cancel(executionId: string, options?: { signal?: AbortSignal }): Promise<ClientResult<boolean>>;
}

function readExecuteResponse(body: unknown): ExecuteResponse | null {
  if (!isObject(body)) return null;
  const executionId = readString(body, 'execution_id');
  if (executionId === null) return null;
  // The execute answer usually says PENDING; it may omit the state.
  return { executionId, state: readString(body, 'state') ?? 'QUERY_STATE_PENDING' };
}

export function createExecutionsApi(transport: Transport): ExecutionsApi {
  return {
    execute: ({ queryId, queryParameters, performance, signal }) =>
      transport.json(
        {
          method: 'POST',
          path: `/query/${queryId}/execute`,
          body: { query_parameters: queryParameters ?? {}, ...(performance ? { performance } : {}) },
          signal,
        },
        readExecuteResponse,
      ),

    executeSql: ({ sql, performance, signal }) =>
      transport.json(
        { method: 'POST', path: '/sql/execute', body: { sql, ...(performance ? { performance } : {}) }, signal },
        readExecuteResponse,
      ),

    status: (executionId, options = {}) =>
      transport.json({ method: 'GET', path: `/execution/${encodeURIComponent(executionId)}/status`, signal: options.signal }, (body) => {
        if (!isObject(body)) return null;
        const fields = readExecutionFields(body);
        if (fields === null) return null;
        return {
          ...fields,
          queuePosition: readInt(body, 'queue_position'),
          resultMetadata: readResultMetadata(readObject(body, 'result_metadata')),
        };
      }),

    cancel: (executionId, options = {}) =>
      transport.json(
        // Cancelling twice is as good as once.
        {
          method: 'POST',
          path: `/execution/${encodeURIComponent(executionId)}/cancel`,
          body: {},
          signal: options.signal,
          idempotent: true,
        },
        (body) => (isObject(body) ? (readBoolean(body, 'success') ?? false) : null),
      ),
  };
}
