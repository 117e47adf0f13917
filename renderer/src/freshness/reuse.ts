import type { ExecutionUpdate, ParameterValues } from '$contract/index.ts';
import { sameParameterValues } from '$contract/parameter-values.ts';

// Whether Run uses the service's latest result instead of starting an execution (issue 36), as the
// official Python client's get_latest_result(max_age_hours) decides: the latest result of the
// same values, younger than the query's max age, is used as it is.

export type ReuseDecision = { reuse: true; execution: ExecutionUpdate; ageMs: number } | { reuse: false };

export interface ReuseInput {
  /** The query's max age in minutes; null: none, every Run runs. */
  maxAgeMinutes: number | null;
  /** The service's latest finished result for the values Run would send (null: none). */
  latest: ExecutionUpdate | null;
  /** The values `latest` was asked for, and those Run would send now: a result of other values is never used. */
  latestFor: ParameterValues;
  parameters: ParameterValues;
  now: number;
}

const COMPLETED = 'QUERY_STATE_COMPLETED';

export function reuseDecision({ maxAgeMinutes, latest, latestFor, parameters, now }: ReuseInput): ReuseDecision {
  if (maxAgeMinutes === null || latest === null || !sameParameterValues(latestFor, parameters)) return { reuse: false };
  // a partial, failed or expired result is not one to stop at
  if (latest.state !== COMPLETED || latest.result === null) return { reuse: false };
  const endedAt = latest.endedAt === null ? Number.NaN : Date.parse(latest.endedAt);
  if (Number.isNaN(endedAt)) return { reuse: false };
  if (latest.expiresAt !== null && Date.parse(latest.expiresAt) <= now) return { reuse: false };
  const ageMs = Math.max(0, now - endedAt);
  return ageMs < maxAgeMinutes * 60_000 ? { reuse: true, execution: latest, ageMs } : { reuse: false };
}
