import { z } from 'zod';
import type { ChannelName } from './names.ts';
import { Account, accountId, ExecutionUpdate, QueryDetail, queryId, QuerySummary, ResultPage } from './models.ts';

// Every channel: the request main accepts and the data it answers with (inside a Result).

const executionId = z.string().min(1).max(200);

/** Values sent as `query_parameters`: the service takes text, or a list for a multi-select enum. */
const parameterValues = z.record(z.string().min(1).max(200), z.union([z.string(), z.array(z.string())]));

export const channels = {
  'app:info': {
    request: z.object({}).strict(),
    response: z.object({ version: z.string(), host: z.enum(['electron', 'web']) }),
  },
  'accounts:list': {
    request: z.object({}).strict(),
    response: z.object({ accounts: z.array(Account), activeAccountId: accountId.nullable() }),
  },
  'queries:list': {
    request: z
      .object({
        accountId,
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
    response: z.object({ queries: z.array(QuerySummary), total: z.number().int() }),
  },
  'queries:get': {
    request: z.object({ accountId, queryId }).strict(),
    response: QueryDetail,
  },
  'executions:run': {
    request: z.object({ accountId, queryId, parameters: parameterValues.optional() }).strict(),
    response: ExecutionUpdate,
  },
  'executions:get': {
    request: z.object({ accountId, executionId }).strict(),
    response: ExecutionUpdate,
  },
  'executions:cancel': {
    request: z.object({ accountId, executionId }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
  'results:getRows': {
    request: z
      .object({
        accountId,
        executionId,
        startRow: z.number().int().min(0),
        endRow: z.number().int().min(1),
      })
      .strict()
      .refine((r) => r.endRow > r.startRow && r.endRow - r.startRow <= 10_000, {
        message: 'endRow must be above startRow, by at most 10000 rows',
        path: ['endRow'],
      }),
    response: ResultPage,
  },
} as const satisfies Record<ChannelName, { request: z.ZodType; response: z.ZodType }>;

export type ChannelRequest<C extends ChannelName> = z.input<(typeof channels)[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<(typeof channels)[C]['response']>;
