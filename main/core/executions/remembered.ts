import { hasResult } from '../../common/dune-states.ts';
import { sameParameterValues, type ExecutionRecord, type ExecutionUpdate, type ParameterValues } from '../../contract/index.ts';

// Runs this app remembers, shown without the service: the last state it saw of each, and the latest
// finished one of a query (with the same parameter values when asked).

export function rememberedUpdate(record: ExecutionRecord): ExecutionUpdate {
  const ended = record.endedAt === null ? Number.NaN : Date.parse(record.endedAt) - Date.parse(record.submittedAt);
  return {
    accountId: record.accountId,
    executionId: record.executionId,
    queryId: record.queryId,
    state: record.state,
    isFinished: record.isFinished,
    queuePosition: null,
    submittedAt: record.submittedAt,
    startedAt: record.startedAt ?? null,
    endedAt: record.endedAt,
    expiresAt: record.expiresAt ?? null,
    elapsedMs: Number.isFinite(ended) ? Math.max(0, ended) : 0,
    error: record.error,
    result: record.result ?? null,
  };
}

/** Newest first in `records`: the newest with a result, with these values when one has them. */
export function latestFinished(
  records: ExecutionRecord[],
  queryId: number,
  parameters: ParameterValues | undefined,
): ExecutionRecord | null {
  const finished = records.filter((r) => r.queryId === queryId && r.isFinished && hasResult(r.state) && r.result);
  return (parameters && finished.find((r) => sameParameterValues(r.parameters, parameters))) || finished[0] || null;
}
