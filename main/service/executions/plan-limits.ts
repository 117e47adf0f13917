import { EXECUTION_MEMORY_BYTES } from '../../common/memory-budgets.ts';
import { PLANS, type Plan } from '../accounts/account-store.ts';
import { formatBytes, formatDuration } from './budget-messages.ts';

/** What one execution of a plan may use. */
export interface PlanLimits {
  /** Running longer than this, an execution is stopped and FAILED. */
  timeLimitMillis: number;
  /** The memory of the DuckDB the context's executions run in (DuckDB's memory_limit). */
  memoryBytes: number;
  /** The disk that DuckDB may spill to (its max_temp_directory_size). */
  spillBytes: number;
  /** A result larger than this is stored truncated, as COMPLETED_PARTIAL. */
  resultBytes: number;
}

/** One value for every plan, or a value for some plans (the others keep their default). */
export type PerPlan<T> = T | Partial<Record<Plan, T>>;

/** What the executions of the whole service may take together. */
export interface ServiceBudget {
  memoryBytes: number;
  spillBytes: number;
}

const GB = 1024 ** 3;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// A timer of Node's fires at once past 2^31 - 1 ms (24.8 days).
const LONGEST_TIMER_MILLIS = 2 ** 31 - 1;
const LONGEST_TIMER_DAYS = 24;

// Sized for a desktop of a few GB and two cores, where the service shares the machine with the
// app and everything else the user runs.
export const DEFAULT_PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { timeLimitMillis: 10 * MINUTE, memoryBytes: EXECUTION_MEMORY_BYTES.free, spillBytes: 1 * GB, resultBytes: 1 * GB },
  plus: { timeLimitMillis: 30 * MINUTE, memoryBytes: EXECUTION_MEMORY_BYTES.plus, spillBytes: 2 * GB, resultBytes: 4 * GB },
  premium: { timeLimitMillis: 120 * MINUTE, memoryBytes: EXECUTION_MEMORY_BYTES.premium, spillBytes: 4 * GB, resultBytes: 8 * GB },
};
export const DEFAULT_SERVICE_BUDGET: ServiceBudget = { memoryBytes: EXECUTION_MEMORY_BYTES.total, spillBytes: 8 * GB };

function valueFor<T>(given: PerPlan<T> | undefined, plan: Plan, fallback: T): T {
  if (given === undefined) return fallback;
  if (typeof given !== 'object' || given === null) return given as T;
  return (given as Partial<Record<Plan, T>>)[plan] ?? fallback;
}

export interface LimitOptions {
  executionTimeLimitMillis?: PerPlan<number>;
  executionMemoryBytes?: PerPlan<number>;
  executionSpillBytes?: PerPlan<number>;
  resultCapBytes?: PerPlan<number>;
  serviceExecutionMemoryBytes?: number;
  serviceExecutionSpillBytes?: number;
}

/**
 * Every plan's limits and the service's totals from the options, defaults for what is not given.
 * A plan whose memory or spill is over the service's total could never start: that is an error
 * at start, naming both.
 */
export function resolveLimits(options: LimitOptions): { plans: Record<Plan, PlanLimits>; total: ServiceBudget } {
  const total: ServiceBudget = {
    memoryBytes: options.serviceExecutionMemoryBytes ?? DEFAULT_SERVICE_BUDGET.memoryBytes,
    spillBytes: options.serviceExecutionSpillBytes ?? DEFAULT_SERVICE_BUDGET.spillBytes,
  };
  const plans = Object.fromEntries(
    PLANS.map((plan) => {
      const fallback = DEFAULT_PLAN_LIMITS[plan];
      const limits: PlanLimits = {
        timeLimitMillis: valueFor(options.executionTimeLimitMillis, plan, fallback.timeLimitMillis),
        // a default over a smaller total given is brought down to it; a value given is checked
        memoryBytes: valueFor(options.executionMemoryBytes, plan, Math.min(fallback.memoryBytes, total.memoryBytes)),
        spillBytes: valueFor(options.executionSpillBytes, plan, Math.min(fallback.spillBytes, total.spillBytes)),
        resultBytes: valueFor(options.resultCapBytes, plan, fallback.resultBytes),
      };
      if (limits.timeLimitMillis > LONGEST_TIMER_MILLIS) {
        throw new Error(
          `the ${plan} plan's time limit (${formatDuration(limits.timeLimitMillis)}) is more than the longest the service can time (${formatDuration(LONGEST_TIMER_DAYS * DAY)})`,
        );
      }
      if (limits.memoryBytes > total.memoryBytes) {
        throw new Error(
          `the ${plan} plan's execution memory (${formatBytes(limits.memoryBytes)}) is more than the service's total for executions (${formatBytes(total.memoryBytes)})`,
        );
      }
      if (limits.spillBytes > total.spillBytes) {
        throw new Error(
          `the ${plan} plan's execution spill (${formatBytes(limits.spillBytes)}) is more than the service's total for executions (${formatBytes(total.spillBytes)})`,
        );
      }
      return [plan, limits];
    }),
  ) as Record<Plan, PlanLimits>;
  return { plans, total };
}
