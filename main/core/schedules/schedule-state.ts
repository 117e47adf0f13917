import { ruleText, type Schedule, type ScheduleNews } from '../../contract/index.ts';
import { isNews } from './change-rule.ts';
import { nextRunAfter } from './next-run.ts';

// A schedule's changes, as plain functions of the schedule and the time: made, edited, paused,
// started and ended. The scheduler applies them and writes the result.

export type ScheduleInput = Pick<Schedule, 'accountId' | 'queryId' | 'queryName' | 'parameters' | 'rule' | 'notify'>;

/** How starting a scheduled run went. `refused`: the service will not run it again as it is (stop). */
export type StartOutcome =
  | { kind: 'started'; executionId: string }
  | { kind: 'refused'; code: string; reason: string }
  | { kind: 'offline'; reason: string }
  | { kind: 'failed'; reason: string };

/** How a started run ended, with the figure its rule watches (null when it could not be measured). */
export interface RunEnd {
  outcome: 'completed' | 'failed' | 'cancelled';
  rows: number | null;
  figure: number | null;
  /** The rows, the figure or the error, in words. */
  message: string;
}

export function created(id: string, input: ScheduleInput, now: Date): Schedule {
  return {
    id,
    ...input,
    isPaused: false,
    stopped: null,
    createdAt: now.toISOString(),
    nextRunAt: nextRunAfter(input.rule, now).toISOString(),
    lastRun: null,
    lastResult: null,
  };
}

/** An edit: a new rule counts from now; a stopped schedule is tried again at once, its cause perhaps fixed. */
export function edited(schedule: Schedule, input: ScheduleInput, now: Date): Schedule {
  const ruleChanged = JSON.stringify(schedule.rule) !== JSON.stringify(input.rule);
  const next = { ...schedule, ...input };
  if (schedule.stopped) return { ...next, stopped: null, isPaused: false, nextRunAt: now.toISOString() };
  if (schedule.isPaused) return next;
  return ruleChanged || schedule.nextRunAt === null ? { ...next, nextRunAt: nextRunAfter(input.rule, now).toISOString() } : next;
}

export function paused(schedule: Schedule, pause: boolean, now: Date): Schedule {
  if (pause) return { ...schedule, isPaused: true, nextRunAt: null };
  const nextRunAt = schedule.stopped ? now.toISOString() : nextRunAfter(schedule.rule, now).toISOString();
  return { ...schedule, isPaused: false, stopped: null, nextRunAt };
}

/** Firing: the next slot counts from now, whichever slots were missed, so they run once. */
export function firing(schedule: Schedule, now: Date): Schedule {
  return { ...schedule, nextRunAt: nextRunAfter(schedule.rule, now).toISOString() };
}

/** After the start: running, stopped (the service refused), or waiting for the service (`retryAt`). */
export function afterStart(schedule: Schedule, start: StartOutcome, now: Date, retryAt: Date): Schedule {
  const lastRun = (outcome: Schedule['lastRun'] & object) => ({ ...schedule, lastRun: outcome });
  const base = { at: now.toISOString(), rows: null, figure: null, previousExecutionId: schedule.lastResult?.executionId ?? null };
  switch (start.kind) {
    case 'started':
      return lastRun({ ...base, executionId: start.executionId, outcome: 'running', message: 'Running…' });
    case 'refused':
      return {
        ...lastRun({ ...base, executionId: null, outcome: 'refused', message: start.reason }),
        stopped: { code: start.code, reason: start.reason },
        nextRunAt: null,
      };
    case 'offline': {
      const nextRunAt = Math.min(Date.parse(schedule.nextRunAt ?? '') || retryAt.getTime(), retryAt.getTime());
      return {
        ...lastRun({ ...base, executionId: null, outcome: 'offline', message: start.reason }),
        nextRunAt: new Date(nextRunAt).toISOString(),
      };
    }
    case 'failed':
      return lastRun({ ...base, executionId: null, outcome: 'failed', message: start.reason });
  }
}

/** After the run ended: its outcome kept, and the figure the next run is compared with. */
export function afterEnd(schedule: Schedule, executionId: string, end: RunEnd): Schedule {
  const lastRun = {
    at: schedule.lastRun?.at ?? new Date().toISOString(),
    executionId,
    outcome: end.outcome,
    message: end.message,
    rows: end.rows,
    figure: end.figure,
    previousExecutionId: schedule.lastResult?.executionId ?? null,
  };
  const lastResult = end.outcome === 'completed' ? { executionId, figure: end.figure } : schedule.lastResult;
  return { ...schedule, lastRun, lastResult };
}

/** The notice of a run that ended (`before`: the schedule as it was), or null when its rule finds no news. */
export function noticeOf(before: Schedule, executionId: string | null, end: RunEnd): ScheduleNews | null {
  const completed = end.outcome === 'completed';
  if (!isNews(before.notify, completed, before.lastResult?.figure ?? null, end.figure)) return null;
  const changed = completed && before.notify.when === 'changed' && before.lastResult !== null;
  const verb = !completed ? (end.outcome === 'cancelled' ? 'was cancelled' : 'failed') : changed ? 'changed' : 'refreshed';
  return {
    scheduleId: before.id,
    accountId: before.accountId,
    queryId: before.queryId,
    queryName: before.queryName,
    executionId,
    previousExecutionId: completed ? (before.lastResult?.executionId ?? null) : null,
    outcome: end.outcome,
    title: `${before.queryName} ${verb}`,
    body: `${end.message} (${ruleText(before.rule)})`,
  };
}

/** The notice of a run the service refused or could not start: news whatever the rule (offline is not: it waits). */
export function startNotice(before: Schedule, start: StartOutcome): ScheduleNews | null {
  if (start.kind !== 'refused' && start.kind !== 'failed') return null;
  return {
    scheduleId: before.id,
    accountId: before.accountId,
    queryId: before.queryId,
    queryName: before.queryName,
    executionId: null,
    previousExecutionId: null,
    outcome: start.kind,
    title: start.kind === 'refused' ? `${before.queryName}: schedule stopped` : `${before.queryName} could not run`,
    body: start.reason,
  };
}
