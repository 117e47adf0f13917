import { STATES_WITH_RESULT } from '../../common/dune-states.ts';
import type { CacheStatus, ExecutionRecord, ExecutionUpdate, ParameterValues, Result, Schedule } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { ExecutionRecords } from '../executions/history.ts';
import { figureText } from './change-rule.ts';
import { columnFigure } from './column-figure.ts';
import type { RunEnd, StartOutcome } from './schedule-state.ts';
import type { ScheduleRunner } from './scheduler.ts';
import { runKey, Waiters } from './waiters.ts';

// A schedule's run, as the Run button's: started through `executions:run` (so it is in the history
// and watched like any), then awaited, and measured for the schedule's change rule: the rows, or a
// column's figure over the result once it is in the cache.

export interface RunnerParts {
  run: (request: { accountId: string; queryId: number; parameters: ParameterValues }) => Promise<Result<ExecutionUpdate>>;
  accounts: AccountRegistry;
  history: Pick<ExecutionRecords, 'find'>;
  cache: ResultCache;
  /** Resolved by core with each run's record when it ends. */
  ended: Waiters<ExecutionRecord>;
  /** Resolved by core with each download's status when it settles. */
  settled: Waiters<CacheStatus>;
}

const SETTLED = new Set<string>(['cached', 'too_large', 'failed', 'cancelled']);

export function scheduleRunner(parts: RunnerParts): ScheduleRunner {
  return {
    async start(schedule) {
      const started = await parts.run({ accountId: schedule.accountId, queryId: schedule.queryId, parameters: schedule.parameters });
      if (started.ok) return { kind: 'started', executionId: started.data.executionId };
      return startRefusal(parts, schedule, started.error);
    },

    async finish(schedule, executionId) {
      const key = runKey(schedule.accountId, executionId);
      const known = parts.history.find(schedule.accountId, executionId);
      if (known === null) return { outcome: 'failed', rows: null, figure: null, message: 'The app no longer knows this run.' };
      const record = await parts.ended.wait(key, () => {
        const current = parts.history.find(schedule.accountId, executionId);
        return current?.isFinished ? current : null;
      });
      return measured(parts, schedule, record);
    },
  };
}

function startRefusal(parts: RunnerParts, schedule: Schedule, error: { code: string; message: string }): StartOutcome {
  if (parts.accounts.get(schedule.accountId) === null) {
    return { kind: 'refused', code: 'account_removed', reason: 'Its account was removed from this app.' };
  }
  switch (error.code) {
    case 'not_found':
      return {
        kind: 'refused',
        code: error.code,
        reason: `The service has no query ${schedule.queryId} for this key: it was deleted, or is not shared with it (${error.message}).`,
      };
    case 'bad_key':
      return { kind: 'refused', code: error.code, reason: `The service refused the account's API key: ${error.message}` };
    case 'forbidden':
      return { kind: 'refused', code: error.code, reason: `The service does not allow running this query: ${error.message}` };
    case 'unreachable':
    case 'timeout':
    case 'rate_limited':
      return { kind: 'offline', reason: `Waiting for the service: ${error.message}` };
    default:
      return { kind: 'failed', reason: error.message };
  }
}

async function measured(parts: RunnerParts, schedule: Schedule, record: ExecutionRecord): Promise<RunEnd> {
  const rows = record.totalRowCount;
  if (!STATES_WITH_RESULT.includes(record.state)) {
    const cancelled = record.state === 'QUERY_STATE_CANCELLED';
    const message = record.error?.message ?? (cancelled ? 'The run was cancelled.' : `The run ended as ${record.state}.`);
    return { outcome: cancelled ? 'cancelled' : 'failed', rows, figure: null, message };
  }
  const rowsText = rows === null ? 'The result is ready.' : `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}.`;
  const { notify } = schedule;
  if (notify.when === 'always') return { outcome: 'completed', rows, figure: null, message: rowsText };
  const { measure } = notify;
  if (measure.kind === 'rows') return { outcome: 'completed', rows, figure: rows, message: rowsText };
  const figure = await cachedFigure(parts, schedule, record, measure);
  const said = figure.ok
    ? figure.data === null
      ? `${measure.figure} of ${measure.column} has no value.`
      : `${figureText(measure, figure.data)}.`
    : figure.message;
  return { outcome: 'completed', rows, figure: figure.ok ? figure.data : null, message: `${rowsText} ${said}` };
}

type Figure = { ok: true; data: number | null } | { ok: false; message: string };

/** The column's figure over the cached result, after downloading it into the cache. */
async function cachedFigure(
  parts: RunnerParts,
  schedule: Schedule,
  record: ExecutionRecord,
  measure: { column: string; figure: 'sum' | 'min' | 'max' },
): Promise<Figure> {
  const { cache } = parts;
  const client = parts.accounts.get(schedule.accountId)?.client;
  if (client == null) return { ok: false, message: 'Its account has no key to fetch the result with.' };
  const key = runKey(schedule.accountId, record.executionId);
  const waiting = parts.settled.wait(key, () => null);
  const started = await cache.start(schedule.accountId, client, record.executionId, false, record.totalRowCount);
  const status = started.ok && SETTLED.has(started.data.state) ? started.data : started.ok ? await waiting : null;
  if (status?.state !== 'cached') {
    const why = started.ok ? (status?.error ?? `its download ended ${status?.state ?? 'unfinished'}`) : started.error.message;
    return {
      ok: false,
      message: `The ${measure.figure} of ${measure.column} could not be measured: the result is not in the cache (${why}).`,
    };
  }
  const entry = await cache.use(schedule.accountId, record.executionId);
  if (entry === null) return { ok: false, message: 'The result left the cache before it was measured.' };
  const figure = await columnFigure(cache.db, entry, measure.column, measure.figure);
  return figure.ok ? figure : { ok: false, message: figure.error.message };
}
