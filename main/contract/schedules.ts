import { z } from 'zod';
import { accountId, ParameterValues, queryId } from './models.ts';

// Schedules: a query refreshed every N minutes or hours, or daily at a local time, while the app
// runs; kept and run by main, which says when a refresh ended (and, if asked, only when it changed).

export const scheduleId = z
  .string()
  .refine((id) => /^[a-z0-9-]{1,64}$/.test(id), 'id must be a schedule id: lowercase letters, digits and dashes');

export const ScheduleRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('minutes'), every: z.number().int().min(1).max(10_080) }).strict(),
  z.object({ kind: z.literal('hours'), every: z.number().int().min(1).max(720) }).strict(),
  /** `at` is the local time of day, `HH:MM` on a 24-hour clock. */
  z
    .object({
      kind: z.literal('daily'),
      at: z.string().refine((at) => /^([01]\d|2[0-3]):[0-5]\d$/.test(at), 'at must be a time of day, HH:MM from 00:00 to 23:59'),
    })
    .strict(),
]);
export type ScheduleRule = z.infer<typeof ScheduleRule>;

/** The rule in words, for the list and the notices. */
export function ruleText(rule: ScheduleRule): string {
  switch (rule.kind) {
    case 'minutes':
      return rule.every === 1 ? 'every minute' : `every ${rule.every} minutes`;
    case 'hours':
      return rule.every === 1 ? 'every hour' : `every ${rule.every} hours`;
    case 'daily':
      return `daily at ${rule.at}`;
  }
}

/** Which figure of a result tells a change: its rows, or a column's sum, min or max crossing a threshold. */
export const ChangeMeasure = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rows') }).strict(),
  z
    .object({
      kind: z.literal('column'),
      column: z.string().min(1).max(500),
      figure: z.enum(['sum', 'min', 'max']),
      threshold: z.number().finite(),
    })
    .strict(),
]);
export type ChangeMeasure = z.infer<typeof ChangeMeasure>;

export const ScheduleNotify = z.discriminatedUnion('when', [
  z.object({ when: z.literal('always') }).strict(),
  z.object({ when: z.literal('changed'), measure: ChangeMeasure }).strict(),
]);
export type ScheduleNotify = z.infer<typeof ScheduleNotify>;

/** How a schedule's last refresh went. */
export const ScheduleOutcome = z.enum(['running', 'completed', 'failed', 'cancelled', 'refused', 'offline']);
export type ScheduleOutcome = z.infer<typeof ScheduleOutcome>;

export const ScheduleLastRun = z.object({
  at: z.string(),
  executionId: z.string().nullable(),
  outcome: ScheduleOutcome,
  /** In words: the rows, the figure, or what went wrong. */
  message: z.string(),
  rows: z.number().int().nullable(),
  /** The measured figure (rows, or the column's sum/min/max), when the schedule watches for a change. */
  figure: z.number().nullable(),
  /** The run before this one that had a result, for comparing. */
  previousExecutionId: z.string().nullable(),
});
export type ScheduleLastRun = z.infer<typeof ScheduleLastRun>;

export const Schedule = z.object({
  id: scheduleId,
  accountId,
  queryId,
  /** As the analyst last saw it, for the list (the query may be gone from the service). */
  queryName: z.string(),
  /** The values the query runs with: those in effect when the schedule was set, editable. */
  parameters: ParameterValues,
  rule: ScheduleRule,
  notify: ScheduleNotify,
  isPaused: z.boolean(),
  /** Stopped by the service's answer (the query is gone, the key refused): why, until edited or resumed. */
  stopped: z.object({ code: z.string(), reason: z.string() }).nullable(),
  createdAt: z.string(),
  /** When it runs next; null while paused or stopped. */
  nextRunAt: z.string().nullable(),
  lastRun: ScheduleLastRun.nullable(),
  /** The latest run that completed, and its figure: what the next one is compared with. */
  lastResult: z.object({ executionId: z.string(), figure: z.number().nullable() }).nullable(),
});
export type Schedule = z.infer<typeof Schedule>;

/**
 * What the window is told when a scheduled refresh ended and its rule says to notify. Main keeps
 * the latest until dismissed, so a window that opens after the run (at the app's start) sees them.
 */
export const ScheduleNotice = z.object({
  id: z.string(),
  scheduleId,
  accountId,
  queryId: z.number().int(),
  queryName: z.string(),
  executionId: z.string().nullable(),
  previousExecutionId: z.string().nullable(),
  outcome: ScheduleOutcome,
  title: z.string(),
  body: z.string(),
});
export type ScheduleNotice = z.infer<typeof ScheduleNotice>;
/** A notice as the scheduler makes it, before main numbers it. */
export type ScheduleNews = Omit<ScheduleNotice, 'id'>;

const ScheduleList = z.object({ schedules: z.array(Schedule), skipped: z.number().int() });

export const schedulesChannels = {
  /**
   * Every schedule, of every account; `skipped`: lines of the schedules file that could not be read;
   * `notices`: those not dismissed yet, newest first.
   */
  'schedules:list': { request: z.object({}).strict(), response: ScheduleList.extend({ notices: z.array(ScheduleNotice) }) },
  /** Creates a schedule (no `id`) or changes one; a stopped one edited is tried again at once. */
  'schedules:save': {
    request: z
      .object({
        id: scheduleId.optional(),
        accountId,
        queryId,
        queryName: z.string().max(500),
        parameters: ParameterValues,
        rule: ScheduleRule,
        notify: ScheduleNotify,
      })
      .strict(),
    response: Schedule,
  },
  /** Pauses or resumes; resuming a stopped schedule tries it again at once. */
  'schedules:pause': { request: z.object({ id: scheduleId, paused: z.boolean() }).strict(), response: Schedule },
  'schedules:delete': { request: z.object({ id: scheduleId }).strict(), response: z.object({}) },
  /** The analyst saw a notice (opened or dismissed it): it is not shown again. */
  'schedules:dismiss': { request: z.object({ noticeId: z.string().max(100) }).strict(), response: z.object({}) },
} as const;

export const schedulesEvents = {
  'schedules:changed': ScheduleList,
  'schedules:notice': ScheduleNotice,
} as const;
