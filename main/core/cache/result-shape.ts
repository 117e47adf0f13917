import { hasResult } from '../../common/dune-states.ts';
import { ok, type Result } from '../../contract/index.ts';
import { noResultText } from '../executions/states.ts';
import type { ServiceClient, ServiceError } from '../service-client/index.ts';
import type { CacheEntry } from './manifest.ts';
import { storageType } from './storage-types.ts';

// What a download needs to know of a result before it is cached: that it is complete (or partial
// and allowed), its rows, columns, size and expiry, all from the execution's status.

export interface ResultShape {
  accountId: string;
  executionId: string;
  columnNames: string[];
  wireTypes: string[];
  /** The DuckDB types the columns are kept as. */
  storageTypes: string[];
  totalRowCount: number;
  totalBytes: number;
  isPartial: boolean;
  expiresAt: string | null;
}

export type ShapeRefusal = ServiceError | { kind: 'partial_result'; message: string };

export type ShapeOutcome = Result<{ shape: ResultShape; roundTripMs: number }, ShapeRefusal>;

/**
 * The result's shape from its status, with that request's round trip (the service does next to
 * nothing for it; with the first pages on their way beside it, it may take a little longer).
 */
export async function readResultShape(
  client: ServiceClient,
  accountId: string,
  executionId: string,
  allowPartial: boolean,
): Promise<ShapeOutcome> {
  const asked = performance.now();
  const read = await client.executions.status(executionId);
  const roundTripMs = performance.now() - asked;
  if (!read.ok) return { ok: false, error: read.error };
  const execution = read.data;
  const isPartial = execution.state === 'QUERY_STATE_COMPLETED_PARTIAL';
  // before the metadata: Dune's status of a partial result has none, and its page is refused without consent
  if (isPartial && !allowPartial) {
    return {
      ok: false,
      error: { kind: 'partial_result', message: 'This result is partial; cache it only if an incomplete result will do.' },
    };
  }
  let metadata = execution.resultMetadata;
  if (hasResult(execution.state) && metadata?.totalResultSetBytes == null) {
    // a status without the result's size: the first row's page carries the same metadata
    const first = await client.results.page({ executionId, offset: 0, limit: 1, allowPartialResults: allowPartial });
    if (first.ok) metadata = first.data.metadata ?? metadata;
  }
  if (!hasResult(execution.state) || metadata === null) {
    return { ok: false, error: { kind: 'bad_request', status: null, message: noResultText('cache', execution.state) } };
  }
  const names = metadata.columnNames ?? [];
  const wireTypes = names.map((_, i) => metadata.columnTypes?.[i] ?? 'unknown');
  const shape: ResultShape = {
    accountId,
    executionId,
    columnNames: names,
    wireTypes,
    storageTypes: wireTypes.map(storageType),
    totalRowCount: metadata.totalRowCount ?? 0,
    totalBytes: metadata.totalResultSetBytes ?? Number.POSITIVE_INFINITY,
    isPartial,
    expiresAt: execution.expiresAt,
  };
  return ok({ shape, roundTripMs });
}

/** An entry of the result's shape over the rows of `tableName`, fetched and used `at`. */
export function entryOfShape(
  shape: ResultShape,
  rows: Pick<CacheEntry, 'tableName' | 'columns' | 'rowCount' | 'bytes'>,
  at: string,
): CacheEntry {
  return {
    accountId: shape.accountId,
    executionId: shape.executionId,
    ...rows,
    wireTypes: shape.wireTypes,
    isPartial: shape.isPartial,
    expiresAt: shape.expiresAt,
    fetchedAt: at,
    lastUsed: at,
  };
}
