import type { CacheStatus, EventName, EventPayload, ExecutionRecord, ScheduleNotice } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { ExecutionRecords } from '../executions/history.ts';
import { scheduleHandlers } from '../handlers/schedules.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import { NoticeBoard } from './notice-board.ts';
import { openScheduleFile } from './schedule-file.ts';
import { scheduleRunner } from './scheduled-runs.ts';
import { Scheduler, systemClock, type Clock } from './scheduler.ts';
import { runKey, Waiters } from './waiters.ts';

// The schedules inside core: what they need to hear of the rest of it (a run ended, a download
// settled), and the scheduler opened over core's own `executions:run`.

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface CoreSchedules {
  /** Core's events, seen on their way to the host. */
  seeing(emit: Emit): Emit;
  /** The history, whose runs' ends the scheduled runs wait for. */
  observing(history: ExecutionRecords): ExecutionRecords;
  /** Reads the schedules, starts keeping time, and answers the channels. */
  open(parts: {
    handlers: Pick<Handlers, 'executions:run'>;
    accounts: AccountRegistry;
    history: ExecutionRecords;
    cache: ResultCache;
  }): ReturnType<typeof scheduleHandlers>;
  dispose(): void;
}

const SETTLED = new Set<string>(['cached', 'too_large', 'failed', 'cancelled']);

export function coreSchedules(options: {
  dataDir: string;
  clock?: Clock;
  emit: Emit;
  onScheduleNotice?: (notice: ScheduleNotice) => void;
}): CoreSchedules {
  const ended = new Waiters<ExecutionRecord>();
  const settled = new Waiters<CacheStatus>();
  let scheduler: Scheduler | null = null;
  const board = new NoticeBoard();
  return {
    seeing: (emit) => (event, payload) => {
      emit(event, payload);
      if (event === 'results:cacheStatus') {
        const status = payload as CacheStatus;
        if (SETTLED.has(status.state)) settled.resolve(runKey(status.accountId, status.executionId), status);
      }
    },

    observing: (history) => ({
      ...history,
      skipped: history.skipped,
      observe(update) {
        const finished = history.observe(update);
        if (finished) ended.resolve(runKey(finished.accountId, finished.executionId), finished);
        return finished;
      },
    }),

    open({ handlers, accounts, history, cache }) {
      scheduler = new Scheduler({
        file: openScheduleFile(options.dataDir),
        clock: options.clock ?? systemClock,
        runner: scheduleRunner({ run: handlers['executions:run'], accounts, history, cache, ended, settled }),
        onChanged: (list) => options.emit('schedules:changed', list),
        onNotice: (news) => {
          const notice = board.post(news);
          options.emit('schedules:notice', notice);
          options.onScheduleNotice?.(notice);
        },
      });
      scheduler.start();
      return scheduleHandlers(scheduler, board, (accountId) => accounts.get(accountId) !== null);
    },

    dispose: () => scheduler?.dispose(),
  };
}
