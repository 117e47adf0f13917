import { outOfMemory } from '../../common/duckdb-errors.ts';
import type { Plan } from '../accounts/account-store.ts';

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** `256 MB`, `1.5 GB`: for messages. */
export function formatBytes(bytes: number): string {
  const [unit, size] = bytes >= GB ? ['GB', GB] : bytes >= MB ? ['MB', MB] : bytes >= 1024 ? ['KB', 1024] : ['bytes', 1];
  return `${Number((bytes / size).toFixed(1))} ${unit}`;
}

/** `10 minutes`, `2 hours`, `3 days`, `45 seconds`: for messages. */
export function formatDuration(millis: number): string {
  const [unit, size] =
    millis % 86_400_000 === 0
      ? ['day', 86_400_000]
      : millis % 3_600_000 === 0
        ? ['hour', 3_600_000]
        : millis % 60_000 === 0
          ? ['minute', 60_000]
          : ['second', 1000];
  const n = Number((millis / size).toFixed(1));
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export function timeLimitMessage(plan: Plan, limitMillis: number): string {
  return `the execution ran past the ${plan} plan's time limit of ${formatDuration(limitMillis)} and was cancelled`;
}

// DuckDB's words for the spill limit, when that is what ran out of room.
const SPILL_LIMIT = 'max_temp_directory_size';

/**
 * The message of an execution stopped by its plan's memory or spill budget, naming the budget and
 * the plan; null for any other error. DuckDB's advice after its first line (raise the limits)
 * is left out: the user cannot follow it.
 */
export function overBudgetMessage(message: string, plan: Plan, limits: { memoryBytes: number; spillBytes: number }): string | null {
  const said = outOfMemory(message);
  if (said === null) return null;
  const detail = `(DuckDB: ${said.trim().replace(/\.$/, '')})`;
  const shared = `shared by the context's running executions`;
  if (message.includes(SPILL_LIMIT)) {
    return `the execution went past the ${plan} plan's spill budget: ${formatBytes(limits.spillBytes)} of disk for data that does not fit in its ${formatBytes(limits.memoryBytes)} of memory, ${shared} ${detail}`;
  }
  return `the execution went past the ${plan} plan's memory budget of ${formatBytes(limits.memoryBytes)}, ${shared} ${detail}`;
}
