import { z } from 'zod';
import { accountId, QueryParameter, queryId } from './models.ts';

// A query's versions as this computer saw them: each version number the service gave the query
// (on a save from here, or when a sync or an open first read it), with its SQL and parameters.

export const QueryVersion = z.object({
  /** The service's `version` of the query. */
  version: z.number().int(),
  /** When this app saved it or first read it from the service (ISO). */
  recordedAt: z.string(),
  name: z.string(),
  sql: z.string(),
  parameters: z.array(QueryParameter),
});
export type QueryVersion = z.infer<typeof QueryVersion>;

export const versionsChannels = {
  /** The query's versions kept here, newest first; `skipped`: lines of its record that could not be read. */
  'versions:list': {
    request: z.object({ accountId, queryId }).strict(),
    response: z.object({ versions: z.array(QueryVersion), skipped: z.number().int().nonnegative() }),
  },
} as const;
