import type { ExecutionListItem, ExecutionUpdate } from '$contract/index.ts';

// The times of each query's latest result the window knows, for the query list's "ran 3 h ago".

export interface ResultTimes {
  endedAt: string | null;
  expiresAt: string | null;
}

/** From the runs this app remembers (newest first): each query's latest finished run with a result. */
export function latestTimes(records: ExecutionListItem[]): Map<number, ResultTimes> {
  const times = new Map<number, ResultTimes>();
  for (const record of records) {
    if (times.has(record.queryId) || !record.isFinished || record.totalRowCount === null) continue;
    times.set(record.queryId, { endedAt: record.endedAt, expiresAt: record.expiresAt ?? null });
  }
  return times;
}

/** The run shown in a query's tab, when it ended with a result: what the service said of it comes first. */
export function shownTimes(update: ExecutionUpdate | null | undefined): ResultTimes | null {
  if (!update?.isFinished || update.result === null) return null;
  return { endedAt: update.endedAt, expiresAt: update.expiresAt };
}
