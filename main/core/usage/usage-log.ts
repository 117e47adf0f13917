import { join } from 'node:path';
import { z } from 'zod';
import { endTornLine, openRecordLog } from '../executions/run-log.ts';

// The app's own record of what it asked of each account's service: every execution it started,
// every result read (datapoints) and every download (bytes). One line per event, appended when it
// happens (run-log.ts), so a kill -9 loses nothing written before it; the usage page adds them up.
// It is read at the page's first opening, not at the app's start: months of use are many lines.

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
  /** Every event kept, oldest first. */
  events(): readonly UsageEvent[];
  /** Lines of the record that could not be read, skipped. */
  skipped(): number;
  forgetAccount(accountId: string): void;
}

export function openUsageLog(dataDir: string, now: () => Date = () => new Date()): UsageLog {
  const path = join(dataDir, 'usage.jsonl');
  const log = openRecordLog(path, UsageEvent, (event) => event.id);
  endTornLine(path);
  let read: { records: UsageEvent[]; skipped: number } | null = null;
  const opened = () => (read ??= log.read());
  // unique across restarts too: the same process id within the same millisecond never starts twice
  const prefix = `${process.pid.toString(36)}.${now().getTime().toString(36)}`;
  let sequence = 0;
  return {
    record(event) {
      const kept: UsageEvent = { ...event, id: `${prefix}.${(sequence++).toString(36)}`, at: now().toISOString() };
      log.append(kept);
      read?.records.push(kept);
    },

    events: () => opened().records,

    skipped: () => opened().skipped,

    forgetAccount(accountId) {
      const kept = opened().records.filter((event) => event.accountId !== accountId);
      log.rewrite(kept);
      read = { records: kept, skipped: 0 };
    },
  };
}
