import { z } from 'zod';
import { accountId, ParameterDefinition, QueryDetail, queryId } from './models.ts';
import { PendingEdit, QueryEdit } from './workspace.ts';

// The queries' channels: read from and written to the service, and kept in the account's workspace.

const queryFields = {
  name: z.string().trim().min(1).max(300),
  sql: z.string().min(1).max(1_000_000),
  description: z.string().max(10_000),
  /** An empty list removes them all (the service's rule). */
  parameters: z.array(ParameterDefinition).max(200),
  tags: z.array(z.string().trim().min(1).max(100)).max(100),
};

export const SaveOutcome = z.discriminatedUnion('status', [
  z.object({ status: z.literal('saved'), query: QueryDetail }),
  /** Kept on disk, sent when the service answers again. */
  z.object({ status: z.literal('pending'), pending: PendingEdit }),
  /** The service's version moved on since `baseVersion`: nothing was sent; the edit waits as a conflict. */
  z.object({ status: z.literal('conflict'), pending: PendingEdit }),
]);
export type SaveOutcome = z.infer<typeof SaveOutcome>;

export const queriesChannels = {
  'queries:get': {
    request: z.object({ accountId, queryId }).strict(),
    response: QueryDetail,
  },
  'queries:create': {
    request: z
      .object({
        accountId,
        name: queryFields.name,
        sql: queryFields.sql,
        description: queryFields.description.optional(),
        parameters: queryFields.parameters.optional(),
        tags: queryFields.tags.optional(),
        isPrivate: z.boolean().optional(),
      })
      .strict(),
    response: QueryDetail,
  },
  /**
   * Archives or unarchives the query, or makes it private or public (private needs a Premium plan:
   * the service's refusal comes back as the error). Sent at once, never kept for later: offline, it
   * answers `unreachable`. Answers the query as the service now has it.
   */
  'queries:setFlags': {
    request: z
      .object({ accountId, queryId, archived: z.boolean().optional(), isPrivate: z.boolean().optional() })
      .strict()
      .refine((r) => r.archived !== undefined || r.isPrivate !== undefined, { message: 'give archived or isPrivate' }),
    response: QueryDetail,
  },
  /**
   * Saves an edit of a query made from `baseVersion`. Online, the service's version is checked
   * first (a moved version answers `conflict`, nothing sent); unreachable, the edit is kept as
   * pending. Either way nothing typed is dropped. A refused save is an error.
   */
  'queries:save': {
    request: z.object({ accountId, queryId, baseVersion: z.number().int(), edit: QueryEdit }).strict(),
    response: SaveOutcome,
  },
  /**
   * Ends a conflict or a refused pending edit: `mine` sends it over the service's version, `theirs`
   * drops it, `copy` creates a new query with the edit applied to the query (the original stays
   * the service's). Answers the query now shown: the saved one, theirs, or the copy.
   */
  'queries:resolvePending': {
    request: z.object({ accountId, queryId, choice: z.enum(['mine', 'theirs', 'copy']) }).strict(),
    response: QueryDetail,
  },
} as const;

export const queriesEvents = {
  /** A `querydesk://query/<id>` link was opened: show that query of that account. */
  'query:open': z.object({ accountId, queryId: z.number().int().positive() }),
} as const;
