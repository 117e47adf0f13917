import { fail, ok } from '../../contract/index.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { NoticeBoard } from '../schedules/notice-board.ts';
import type { Scheduler } from '../schedules/scheduler.ts';

type ScheduleChannels = 'schedules:list' | 'schedules:save' | 'schedules:pause' | 'schedules:delete' | 'schedules:dismiss';

const noSuchSchedule = (id: string) =>
  fail('not_found', `There is no schedule with the id ${JSON.stringify(id)}; it may have been deleted.`);

export function scheduleHandlers(
  scheduler: Scheduler,
  notices: NoticeBoard,
  hasAccount: (accountId: string) => boolean,
): Pick<Handlers, ScheduleChannels> {
  return {
    'schedules:list': async () => ok({ ...scheduler.list(), notices: notices.list() }),

    'schedules:save': async ({ id, ...input }) => {
      if (!hasAccount(input.accountId)) return noSuchAccount(input.accountId);
      const saved = scheduler.save(id, input);
      return saved ? ok(saved) : noSuchSchedule(id ?? '');
    },

    'schedules:pause': async ({ id, paused }) => {
      const schedule = scheduler.pause(id, paused);
      return schedule ? ok(schedule) : noSuchSchedule(id);
    },

    'schedules:delete': async ({ id }) => (scheduler.delete(id) ? ok({}) : noSuchSchedule(id)),

    'schedules:dismiss': async ({ noticeId }) => {
      notices.dismiss(noticeId);
      return ok({});
    },
  };
}
