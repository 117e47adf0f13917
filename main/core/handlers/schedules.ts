import { fail, ok } from '../../contract/index.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { Scheduler } from '../schedules/scheduler.ts';

type ScheduleChannels = 'schedules:list' | 'schedules:save' | 'schedules:pause' | 'schedules:delete';

const noSuchSchedule = (id: string) =>
  fail('not_found', `There is no schedule with the id ${JSON.stringify(id)}; it may have been deleted.`);

export function scheduleHandlers(scheduler: Scheduler, hasAccount: (accountId: string) => boolean): Pick<Handlers, ScheduleChannels> {
  return {
    'schedules:list': async () => ok(scheduler.list()),

    'schedules:save': async ({ id, ...input }) => {
      if (!hasAccount(input.accountId)) return fail('not_found', `There is no account with the id ${JSON.stringify(input.accountId)}.`);
      const saved = scheduler.save(id, input);
      return saved ? ok(saved) : noSuchSchedule(id ?? '');
    },

    'schedules:pause': async ({ id, paused }) => {
      const schedule = scheduler.pause(id, paused);
      return schedule ? ok(schedule) : noSuchSchedule(id);
    },

    'schedules:delete': async ({ id }) => (scheduler.delete(id) ? ok({}) : noSuchSchedule(id)),
  };
}
