import { z } from 'zod';

// One line of the usage record: an execution the app started, a result it read (datapoints) or a
// download (bytes), as written to the month's file and read back.

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
