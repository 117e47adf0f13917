import { join } from 'node:path';
import { z } from 'zod';
import { openRecordLog } from '../executions/run-log.ts';

// The app's own record of what it asked of each account's service: every execution it started,
// every result read (datapoints) and every download (bytes). One line per event, appended when it
// happens (run-log.ts), so a kill -9 loses nothing written before it; the usage page adds them up.

export const UsageEvent = z.object({
  id: z.string().min(1),
  kind: z.enum(['execution', 'read', 'download']),
  accountId: z.string().min(1),
  executionId: z.string(),
  /** The query it ran or read; 0 for SQL of no saved query, null when the service did not say. */
  queryId: z.number().int().nullable(),
  /** When it happened, by the app's clock. */
  at: z.string(),
  datapoints: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

export type NewUsageEvent = Omit<UsageEvent, 'id' | 'at'>;

export interface UsageLog {
  record(event: NewUsageEvent): void;
  /** Every event kept, oldest first. */
  events(): readonly UsageEvent[];
  /** Lines of the record that could not be read when it was opened, skipped. */
  readonly skipped: number;
  forgetAccount(accountId: string): void;
}

export function openUsageLog(dataDir: string, now: () => Date = () => new Date()): UsageLog {
  const log = openRecordLog(join(dataDir, 'usage.jsonl'), UsageEvent, (event) => event.id);
  const opened = log.read();
  let events = opened.records;
  // unique across restarts too: the same process id within the same millisecond never starts twice
  const prefix = `${process.pid.toString(36)}.${now().getTime().toString(36)}`;
  let sequence = 0;
  return {
    skipped: opened.skipped,

    record(event) {
      const kept: UsageEvent = { ...event, id: `${prefix}.${(sequence++).toString(36)}`, at: now().toISOString() };
      log.append(kept);
      events.push(kept);
    },

    events: () => events,

    forgetAccount(accountId) {
      events = events.filter((event) => event.accountId !== accountId);
      log.rewrite(events);
    },
  };
}
