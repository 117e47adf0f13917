import { join } from 'node:path';
import { z } from 'zod';
import { ExecutionRecord, type ExecutionUpdate, type ParameterValues } from '../../contract/index.ts';
import { jsonFileStore } from '../settings/settings-store.ts';

// The executions this app started, per account, kept in a small file under core's data folder
// (written atomically) so that the list survives a restart and a run still going when the app
// closed is watched again at the next start.

export interface ExecutionRecords {
  /** `sql`: the text that ran, when it was not the query as saved. */
  started(accountId: string, executionId: string, queryId: number, parameters: ParameterValues, sql?: string): void;
  /** Applies what the watcher saw; answers the record when this update is the one that ends it. */
  observe(update: ExecutionUpdate): ExecutionRecord | null;
  list(accountId: string, limit: number): ExecutionRecord[];
  find(accountId: string, executionId: string): ExecutionRecord | null;
  /** Still running when last seen, and not abandoned by the watcher: to be watched again. */
  unfinished(): ExecutionRecord[];
  forgetAccount(accountId: string): void;
}

const RecordsFile = z.object({ executions: z.array(ExecutionRecord) });
const KEPT_PER_ACCOUNT = 200;
const MAX_KEPT_SQL = 20_000;

export function openExecutionRecords(dataDir: string, now: () => Date = () => new Date()): ExecutionRecords {
  const file = jsonFileStore(join(dataDir, 'executions.json'), RecordsFile, () => ({ executions: [] }));
  // Newest first.
  let records: ExecutionRecord[] = file.read().executions;

  function save(): void {
    const kept = new Map<string, number>();
    records = records.filter((record) => {
      const count = (kept.get(record.accountId) ?? 0) + 1;
      kept.set(record.accountId, count);
      return count <= KEPT_PER_ACCOUNT;
    });
    file.write({ executions: records });
  }

  return {
    started(accountId, executionId, queryId, parameters, sql) {
      records = records.filter((r) => !(r.accountId === accountId && r.executionId === executionId));
      records.unshift({
        accountId,
        executionId,
        queryId,
        parameters,
        state: 'QUERY_STATE_PENDING',
        isFinished: false,
        submittedAt: now().toISOString(),
        endedAt: null,
        error: null,
        totalRowCount: null,
        // shown beside the run; a long text is kept in part, so the history file stays small
        ...(sql === undefined ? {} : { sql: sql.slice(0, MAX_KEPT_SQL) }),
      });
      save();
    },

    observe(update) {
      const index = records.findIndex((r) => r.accountId === update.accountId && r.executionId === update.executionId);
      const record = records[index];
      if (record === undefined) return null;
      const next: ExecutionRecord = {
        ...record,
        state: update.state,
        isFinished: update.isFinished,
        endedAt: record.endedAt ?? (update.isFinished ? (update.endedAt ?? now().toISOString()) : null),
        error: update.error,
        totalRowCount: update.result?.totalRowCount ?? record.totalRowCount,
        startedAt: update.startedAt ?? record.startedAt ?? null,
        expiresAt: update.expiresAt ?? record.expiresAt ?? null,
        result: update.result ?? record.result ?? null,
      };
      if (JSON.stringify(next) === JSON.stringify(record)) return null;
      records[index] = next;
      save();
      return next.isFinished && !record.isFinished ? next : null;
    },

    list: (accountId, limit) => records.filter((r) => r.accountId === accountId).slice(0, limit),

    find: (accountId, executionId) => records.find((r) => r.accountId === accountId && r.executionId === executionId) ?? null,

    unfinished: () => records.filter((r) => !r.isFinished && r.error === null),

    forgetAccount(accountId) {
      records = records.filter((r) => r.accountId !== accountId);
      save();
    },
  };
}
