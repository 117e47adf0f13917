import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { endTornLine, openRecordLog, type RecordLog } from '../executions/run-log.ts';
import { localDay } from './local-day.ts';

// The app's own record of what it asked of each account's service: every execution it started,
// every result read (datapoints) and every download (bytes). One line per event, appended when it
// happens (run-log.ts), so a kill -9 loses nothing written before it; the usage page adds them up.

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const KINDS = new Set(['execution', 'read', 'download']);

export interface UsageEvent {
  id: string;
  kind: 'execution' | 'read' | 'download';
  accountId: string;
  executionId: string;
  /** The query it ran or read; 0 for SQL of no saved query, null when the service did not say. */
  queryId: number | null;
  /** When it happened, by the app's clock, as `toISOString` writes it (the report compares the text). */
  at: string;
  datapoints: number;
  bytes: number;
}

const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const text = (value: unknown) => typeof value === 'string' && value !== '';

/** Checked by hand, not by a general schema: months of use are many lines, all read at once. */
function isUsageEvent(value: unknown): value is UsageEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    text(event.id) &&
    KINDS.has(event.kind as string) &&
    text(event.accountId) &&
    typeof event.executionId === 'string' &&
    (event.queryId === null || Number.isSafeInteger(event.queryId)) &&
    typeof event.at === 'string' &&
    ISO_TIME.test(event.at) &&
    count(event.datapoints) &&
    count(event.bytes)
  );
}

export const UsageEvent = z.custom<UsageEvent>(isUsageEvent, 'not a usage event');

export type NewUsageEvent = Omit<UsageEvent, 'id' | 'at'>;

export interface UsageLog {
  record(event: NewUsageEvent): void;
  /** The months the record holds, `YYYY-MM`. */
  months(): string[];
  /** The events written in a month (local time), oldest first, and its lines skipped as unreadable. */
  month(month: string): { events: readonly UsageEvent[]; skipped: number };
  forgetAccount(accountId: string): void;
}

const FILE = /^usage-(\d{4}-\d\d)\.jsonl$/;

/**
 * A file per month of local time as the event was written, so that the page reads one month's
 * lines, however long the app has been used. A month's file is read at its first report, not at
 * the app's start, and appended to before that.
 */
export function openUsageLog(dir: string, now: () => Date = () => new Date()): UsageLog {
  const logs = new Map<string, { log: RecordLog<UsageEvent>; read: { records: UsageEvent[]; skipped: number } | null }>();
  const fileOf = (month: string) => {
    let file = logs.get(month);
    if (file === undefined) {
      const path = join(dir, `usage-${month}.jsonl`);
      endTornLine(path);
      logs.set(month, (file = { log: openRecordLog(path, UsageEvent, (event) => event.id), read: null }));
    }
    return file;
  };
  const opened = (month: string) => {
    const file = fileOf(month);
    return (file.read ??= file.log.read());
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
      file.read?.records.push(kept);
    },

    months,

    month(month) {
      const { records, skipped } = opened(month);
      return { events: records, skipped };
    },

    forgetAccount(accountId) {
      for (const month of months()) {
        const kept = opened(month).records.filter((event) => event.accountId !== accountId);
        fileOf(month).log.rewrite(kept);
        fileOf(month).read = { records: kept, skipped: 0 };
      }
    },
  };
}
