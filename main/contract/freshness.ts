import { z } from 'zod';
import { accountId, executionId, ExecutionUpdate, ParameterValues, queryId } from './models.ts';

// Freshness (issue 36): a query's max age, the service's latest result it is measured against,
// and results pinned in the cache until the service expires them.

/** Up to the 90 days the service keeps a result; whole minutes. */
export const MAX_AGE_LIMIT_MINUTES = 90 * 24 * 60;
export const maxAgeMinutes = z.number().int().min(1).max(MAX_AGE_LIMIT_MINUTES);

export const PinState = z.object({
  pinned: z.boolean(),
  /** Until when the cache keeps its rows: the service's expiry of the result (null: until unpinned). */
  keptUntil: z.string().nullable(),
});
export type PinState = z.infer<typeof PinState>;

export const freshnessChannels = {
  /**
   * The query's max age (null: none), kept with the account's workspace; with one, the service's
   * latest finished result for exactly `parameters` (`GET /query/{id}/results?params.…`), null when
   * there is none or the service cannot be reached. Nothing is asked of the service without a max age.
   */
  'freshness:query': {
    request: z.object({ accountId, queryId, parameters: ParameterValues }).strict(),
    response: z.object({ maxAgeMinutes: maxAgeMinutes.nullable(), latest: ExecutionUpdate.nullable() }),
  },
  /** Sets or (null) removes the query's max age; on disk before it answers. */
  'freshness:setMaxAge': {
    request: z.object({ accountId, queryId, maxAgeMinutes: maxAgeMinutes.nullable() }).strict(),
    response: z.object({ maxAgeMinutes: maxAgeMinutes.nullable() }),
  },
  /**
   * Pins (or unpins) a result: the cache keeps its rows past its budget until the service's
   * expiry, across restarts. Unpinned, it is evicted like any other. A result the service has
   * already expired answers `bad_request`, saying when it expired.
   */
  'freshness:pin': {
    request: z.object({ accountId, executionId, pinned: z.boolean() }).strict(),
    response: PinState,
  },
  'freshness:pinState': {
    request: z.object({ accountId, executionId }).strict(),
    response: PinState,
  },
} as const;
