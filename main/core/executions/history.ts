import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ExecutionRecord, type ExecutionUpdate, type ParameterValues } from '../../contract/index.ts';
import { jsonFileStore } from '../settings/settings-store.ts';
import { openRecordLog } from './run-log.ts';

// Every execution this app started, per account, kept in a log under core's data folder, written
// with each change (see run-log.ts): the history survives a restart or a kill, and a run still
// going when the app closed is watched again at the next start.

export interface ExecutionRecords {
  started(accountId: string, executionId: string, queryId: number, parameters: ParameterValues, ran?: RanText): void;
  /** Applies what the watcher saw; answers the record when this update is the one that ends it. */
  observe(update: ExecutionUpdate): ExecutionRecord | null;
  list(accountId: string, limit: number): ExecutionRecord[];
  /** Every record kept, of every account, newest first. */
  all(): readonly ExecutionRecord[];
  /** Lines of the log that could not be read when it was opened, skipped. */
  readonly skipped: number;
  find(accountId: string, executionId: string): ExecutionRecord | null;
  /** Still running when last seen, and not abandoned by the watcher: to be watched again. */
  unfinished(): ExecutionRecord[];
  forgetAccount(accountId: string): void;
}

/** What ran: the text of an edit or a scratch tab; else the query's name and text as saved then. */
export interface RanText {
  /** The text that ran, when it was not the query as saved. */
  sql?: string;
  queryName?: string;
  querySql?: string;
}

const MAX_KEPT_SQL = 20_000;
// The log is written again without its stale lines once they outnumber the records this much.
const STALE_LINES_PER_RECORD = 2;
const STALE_LINES_AT_LEAST = 1_000;

const keyOf = (record: ExecutionRecord) => `${record.accountId}\u0000${record.executionId}`;

/** The runs' records, newest first, from the log (or the JSON file of earlier versions, moved into it). */
function readRecords(dataDir: string) {
  const log = openRecordLog(join(dataDir, 'runs.jsonl'), ExecutionRecord, keyOf);
  const earlier = join(dataDir, 'executions.json');
  if (existsSync(earlier)) {
    const file = jsonFileStore(earlier, z.object({ executions: z.array(ExecutionRecord) }), () => ({ executions: [] }));
    const { records } = log.read();
    const known = new Set(records.map(keyOf));
    const moved = file.read().executions.filter((r) => !known.has(keyOf(r)));
    log.rewrite([...moved.reverse(), ...records]);
    rmSync(earlier, { force: true });
  }
  const { records, skipped } = log.read();
  return { log, records: records.reverse(), skipped };
}

/** The record after what the watcher saw. */
function applyUpdate(record: ExecutionRecord, update: ExecutionUpdate, now: () => Date): ExecutionRecord {
  return {
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
}

/** One copy in memory of each text that ran: runs of one query share it. */
function textKeeper(): (text: string) => string {
  const texts = new Map<string, string>();
  return (text) => {
    const kept = text.slice(0, MAX_KEPT_SQL);
    if (!texts.has(kept)) texts.set(kept, kept);
    return texts.get(kept)!;
  };
}

export function openExecutionRecords(dataDir: string, now: () => Date = () => new Date()): ExecutionRecords {
  const opened = readRecords(dataDir);
  const { log, skipped } = opened;
  // Newest first.
  let records: ExecutionRecord[] = opened.records;
  const shared = textKeeper();
  for (const record of records) {
    if (record.sql !== undefined) record.sql = shared(record.sql);
    if (record.querySql !== undefined) record.querySql = shared(record.querySql);
  }

  const compact = () => {
    if (log.lines > records.length * STALE_LINES_PER_RECORD + STALE_LINES_AT_LEAST) log.rewrite([...records].reverse());
  };
  const save = (record: ExecutionRecord) => {
    log.append(record);
    compact();
  };
  compact();

  return {
    skipped,

    started(accountId, executionId, queryId, parameters, ran = {}) {
      records = records.filter((r) => !(r.accountId === accountId && r.executionId === executionId));
      const record: ExecutionRecord = {
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
        // shown beside the run; a long text is kept in part, so the history stays small
        ...(ran.sql === undefined ? {} : { sql: shared(ran.sql) }),
        ...(ran.queryName === undefined ? {} : { queryName: ran.queryName }),
        ...(ran.querySql === undefined ? {} : { querySql: shared(ran.querySql) }),
      };
      records.unshift(record);
      save(record);
    },

    observe(update) {
      const index = records.findIndex((r) => r.accountId === update.accountId && r.executionId === update.executionId);
      const record = records[index];
      if (record === undefined) return null;
      const next = applyUpdate(record, update, now);
      if (JSON.stringify(next) === JSON.stringify(record)) return null;
      records[index] = next;
      save(next);
      return next.isFinished && !record.isFinished ? next : null;
    },

    list(accountId, limit) {
      const listed: ExecutionRecord[] = [];
      for (const record of records) {
        if (listed.length >= limit) break;
        if (record.accountId === accountId) listed.push(record);
      }
      return listed;
    },

    all: () => records,

    find: (accountId, executionId) => records.find((r) => r.accountId === accountId && r.executionId === executionId) ?? null,

    unfinished: () => records.filter((r) => !r.isFinished && r.error === null),

    forgetAccount(accountId) {
      records = records.filter((r) => r.accountId !== accountId);
      log.rewrite([...records].reverse());
    },
  };
}
