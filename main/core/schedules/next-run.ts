import type { ScheduleRule } from '../../contract/index.ts';

// When a schedule runs next, by the computer's local time. A slot missed (the app was closed, the
// service offline) is not made up one by one: the caller runs once, then asks for the next slot
// from that moment, so a week away costs one run, not a week of them.

const MINUTE_MS = 60_000;

/** The first slot of `rule` strictly after `from`. */
export function nextRunAfter(rule: ScheduleRule, from: Date): Date {
  switch (rule.kind) {
    case 'minutes':
      return new Date(from.getTime() + rule.every * MINUTE_MS);
    case 'hours':
      return new Date(from.getTime() + rule.every * 60 * MINUTE_MS);
    case 'daily':
      return nextDailyAfter(rule.at, from);
  }
}

/**
 * The next local `HH:MM` after `from`. Built from the calendar day, not by adding 24 hours, so it
 * stays at that wall-clock time across a change of daylight saving time: a time the spring change
 * skips runs at the same moment an hour later (as Date does), and one the autumn change repeats
 * runs at its first occurrence only.
 */
function nextDailyAfter(at: string, from: Date): Date {
  const [hours, minutes] = at.split(':').map(Number) as [number, number];
  for (let day = 0; ; day++) {
    const slot = new Date(from.getFullYear(), from.getMonth(), from.getDate() + day, hours, minutes, 0, 0);
    if (slot.getTime() > from.getTime()) return slot;
  }
}

/** Whether a schedule whose next slot is `nextRunAt` should run at `now` (a missed slot included). */
export function isDue(nextRunAt: string | null, now: Date): boolean {
  return nextRunAt !== null && Date.parse(nextRunAt) <= now.getTime();
}
