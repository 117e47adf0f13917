import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { endTornLine, openRecordLog, type RecordLog } from '../executions/run-log.ts';
import { localDay } from './local-day.ts';
import { UsageEvent, type NewUsageEvent } from './usage-event.ts';
import { UsageSums } from './usage-report.ts';

// The app's own record of what it asked of each account's service: every execution it started,
// every result read (datapoints) and every download (bytes). One line per event, appended when it
// happens (run-log.ts), so a kill -9 loses nothing written before it; the usage page adds them up.

export interface UsageLog {
  record(event: NewUsageEvent): void;
  /** The months the record holds, `YYYY-MM`. */
  months(): string[];
  /** The events of a month's file (local time when written) added up, and its lines skipped as unreadable. */
  month(month: string): { sums: UsageSums; skipped: number };
  forgetAccount(accountId: string): void;
}

const FILE = /^usage-(\d{4}-\d\d)\.jsonl$/;

/**
 * A file per month of local time as the event was written, so that the page reads one month's
 * lines, however long the app has been used. A month's file is read at its first report, not at
 * the app's start, and appended to before that.
 */
export function openUsageLog(dir: string, now: () => Date = () => new Date()): UsageLog {
  const logs = new Map<string, { log: RecordLog<UsageEvent>; read: { sums: UsageSums; skipped: number } | null }>();
  const fileOf = (month: string) => {
    let file = logs.get(month);
    if (file === undefined) {
      const path = join(dir, `usage-${month}.jsonl`);
      endTornLine(path);
      logs.set(month, (file = { log: openRecordLog(path, UsageEvent, (event) => event.id), read: null }));
    }
    return file;
  };
  const sumsOf = (events: readonly UsageEvent[]) => {
    const sums = new UsageSums();
    for (const event of events) sums.add(event);
    return sums;
  };
  const opened = (month: string) => {
    const file = fileOf(month);
    if (file.read === null) {
      const sums = new UsageSums();
      file.read = { sums, skipped: file.log.scan((event) => sums.add(event)) };
    }
    return file.read;
  };
  // unique across restarts too: the same process id within the same millisecond never starts twice
  const prefix = `${process.pid.toString(36)}.${now().getTime().toString(36)}`;
  let sequence = 0;
  const months = () => (existsSync(dir) ? readdirSync(dir).flatMap((name) => FILE.exec(name)?.[1] ?? []) : []);
  return {
    record(event) {
      const at = now();
      const kept: UsageEvent = { ...event, id: `${prefix}.${(sequence++).toString(36)}`, at: at.toISOString() };
      const file = fileOf(localDay(at).slice(0, 7));
      file.log.append(kept);
      file.read?.sums.add(kept);
    },

    months,

    month: opened,

    forgetAccount(accountId) {
      for (const month of months()) {
        const file = fileOf(month);
        const kept = file.log.read().records.filter((event) => event.accountId !== accountId);
        file.log.rewrite(kept);
        file.read = { sums: sumsOf(kept), skipped: 0 };
      }
    },
  };
}
