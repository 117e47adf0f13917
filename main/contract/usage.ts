import { z } from 'zod';
import { accountId } from './models.ts';

// What the app spends on a service: the usage it records (executions started, datapoints read,
// bytes downloaded), the account's rates that turn it into an estimated cost, and the size above
// which a read or an export asks first.

/** A read or an export of more datapoints than this asks first, unless the setting says otherwise. */
export const DEFAULT_CONFIRM_DATAPOINTS = 1_000_000;

const rate = z.number().nonnegative().max(1e9).nullable();

/**
 * An account's prices in its own unit (credits, dollars…): per datapoint read and per execution.
 * Both null (the default): no cost is estimated, only datapoints are shown.
 */
export const UsageRates = z
  .object({
    perDatapoint: rate,
    perExecution: rate,
    unit: z.string().trim().max(20),
  })
  .strict();
export type UsageRates = z.infer<typeof UsageRates>;

export const NO_RATES: UsageRates = { perDatapoint: null, perExecution: null, unit: 'credits' };

export const UsageSettings = z.object({
  /** A read or export above this many datapoints asks first. */
  confirmDatapoints: z.number().int().min(0).max(1e15),
  rates: UsageRates,
});
export type UsageSettings = z.infer<typeof UsageSettings>;

/** `YYYY-MM`, in the computer's local time. */
const month = z
  .string()
  .refine((text) => /^\d{4}-(0[1-9]|1[0-2])$/.test(text), { message: 'month must be written YYYY-MM, such as 2026-03' });

export const UsageFigures = z.object({
  executions: z.number().int().nonnegative(),
  datapoints: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Estimated with the account's rates; null when it has none. */
  cost: z.number().nullable(),
});
export type UsageFigures = z.infer<typeof UsageFigures>;

export const UsageReport = z.object({
  month,
  /** Every month the record holds for the account, newest first, the current one always. */
  months: z.array(month),
  /** Days of the month with any usage, in order (`YYYY-MM-DD`, local time). */
  byDay: z.array(UsageFigures.extend({ day: z.string() })),
  /** Queries by their datapoints, most first; queryId 0 is SQL run without a saved query. */
  byQuery: z.array(UsageFigures.extend({ queryId: z.number().int(), name: z.string() })),
  total: UsageFigures,
  rates: UsageRates,
  /** Lines of the usage record that could not be read, skipped. */
  skipped: z.number().int().nonnegative(),
});
export type UsageReport = z.infer<typeof UsageReport>;

export const usageChannels = {
  /** The account's rates and the app's confirm size; the fields given change first. */
  'usage:settings': {
    request: z
      .object({
        accountId,
        rates: UsageRates.optional(),
        confirmDatapoints: UsageSettings.shape.confirmDatapoints.optional(),
      })
      .strict(),
    response: UsageSettings,
  },
  /** The account's usage in one month (local time), by day and by query. */
  'usage:report': {
    request: z.object({ accountId, month }).strict(),
    response: UsageReport,
  },
} as const;

/** The estimated cost of this much use; null when the account has no rate for any of it. */
export function estimateCost(rates: UsageRates, use: { datapoints: number; executions: number }): number | null {
  if (rates.perDatapoint === null && rates.perExecution === null) return null;
  return use.datapoints * (rates.perDatapoint ?? 0) + use.executions * (rates.perExecution ?? 0);
}
