import { z } from 'zod';
import { externalUrl } from '../common/external-url.ts';
import { accountChannels } from './accounts.ts';
import {
  accountId,
  ExecutionListItem,
  ExecutionUpdate,
  ParameterDefinition,
  ParameterValues,
  QueryDetail,
  queryId,
  QuerySummary,
  ResultPage,
} from './models.ts';
import type { ChannelName } from './names.ts';
import { CacheStatus, CacheUsage, ChartData, ChartRequest, ColumnProfile, RunComparison, ExportRequest, ExportStarted, ResultSample, resultView } from './results.ts';
import { settingsChannels } from './settings.ts';
import { tableChannels } from './tables.ts';
import { uiChannels } from './ui-state.ts';
import { workspaceChannels } from './workspace.ts';

// Every channel: the request main accepts and the data it answers with (inside a Result).

const executionId = z.string().min(1).max(200);

const queryFields = {
  name: z.string().trim().min(1).max(300),
  sql: z.string().min(1).max(1_000_000),
  description: z.string().max(10_000),
  /** An empty list removes them all (the service's rule). */
  parameters: z.array(ParameterDefinition).max(200),
  tags: z.array(z.string().trim().min(1).max(100)).max(100),
};

export const channels = {
  'app:info': {
    request: z.object({}).strict(),
    response: z.object({ version: z.string(), host: z.enum(['electron', 'web']) }),
  },
  /**
   * Opens an https link (a block explorer's page) in the system's browser. `opened` is false where
   * the host has no browser of its own to hand it to (the browser host): the page opens it itself.
   */
  'app:openUrl': {
    request: z
      .object({ url: z.string().max(4000).refine((url) => externalUrl(url) !== null, { message: 'url must be an https address without a user name or password' }) })
      .strict(),
    response: z.object({ opened: z.boolean() }),
  },
  ...accountChannels,
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
  /** Fields left out stay as they are. Answers the query as saved (its version moved on). */
  'queries:update': {
    request: z
      .object({
        accountId,
        queryId,
        name: queryFields.name.optional(),
        sql: queryFields.sql.optional(),
        description: queryFields.description.optional(),
        parameters: queryFields.parameters.optional(),
        tags: queryFields.tags.optional(),
      })
      .strict()
      .refine((r) => ['name', 'sql', 'description', 'parameters', 'tags'].some((field) => field in r), {
        message: 'give at least one of name, sql, description, parameters, tags',
      }),
    response: QueryDetail,
  },
  /**
   * Archives or unarchives the query, or makes it private or public (private needs a Premium plan:
   * the service's refusal comes back as the error). Sent at once, never kept for later: offline, it
   * answers `unreachable`. Answers the query as the service now has it.
   */
  'queries:setFlags': {
    request: z.object({ accountId, queryId, archived: z.boolean().optional(), isPrivate: z.boolean().optional() }).strict()
      .refine((r) => r.archived !== undefined || r.isPrivate !== undefined, { message: 'give archived or isPrivate' }),
    response: QueryDetail,
  },
  'executions:run': {
    request: z.object({ accountId, queryId, parameters: ParameterValues.optional() }).strict(),
    response: ExecutionUpdate,
  },
  /**
   * Runs SQL text as it is (the editor's edited text or its selection, its parameters already put
   * in) without saving it: `POST /sql/execute`. Kept in the run history of `queryId`, the query
   * whose tab ran it, with the values that were put in; null for a scratch tab's SQL, of no query.
   */
  'executions:runSql': {
    request: z.object({ accountId, queryId: queryId.nullable(), sql: z.string().min(1).max(1_000_000), parameters: ParameterValues.optional() }).strict(),
    response: ExecutionUpdate,
  },
  /** Unreachable service: the last state main saw of an execution it knows (a finished one shows offline). */
  'executions:get': {
    request: z.object({ accountId, executionId }).strict(),
    response: ExecutionUpdate,
  },
  'executions:cancel': {
    request: z.object({ accountId, executionId }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
  /** The executions this app started for the account, newest first, kept across restarts. */
  'executions:list': {
    request: z.object({ accountId, limit: z.number().int().min(1).max(500).optional() }).strict(),
    response: z.object({ executions: z.array(ExecutionListItem) }),
  },
  /**
   * Which execution the UI shows now (null: none). An execution that ends while the user looks
   * elsewhere gets a desktop notification in the Electron host.
   */
  'executions:viewing': {
    request: z.object({ viewing: z.object({ accountId, executionId }).strict().nullable() }).strict(),
    response: z.object({}),
  },
  'results:getRows': {
    request: z
      .object({
        accountId,
        executionId,
        startRow: z.number().int().min(0),
        endRow: z.number().int().min(1),
        /** Read a truncated (COMPLETED_PARTIAL) result; without it such a result answers `partial_result`. */
        allowPartial: z.boolean().optional(),
        /**
         * In the service's language, as `filters`, `sort_by`, `columns`: answered from the cache when it
         * holds the whole result, else by the service, the same either way. A mistake in them answers
         * `bad_request` with `details: {part, position}` (1-based) when the position is known.
         */
        ...resultView,
      })
      .strict()
      .refine((r) => r.endRow > r.startRow && r.endRow - r.startRow <= 10_000, {
        message: 'endRow must be above startRow, by at most 10000 rows',
        path: ['endRow'],
      }),
    response: ResultPage,
  },
  /**
   * About `sampleCount` rows drawn at random (each call differs); from the cache when it holds the
   * result. With `filters`, from the rows that pass them: only the cache can, the service samples
   * only a whole result (bad_request, details `{ wholeResultOnly: true }`).
   */
  'results:sample': {
    request: z
      .object({
        accountId,
        executionId,
        sampleCount: z.number().int().min(1).max(10_000),
        columns: resultView.columns,
        filters: resultView.filters,
        allowPartial: z.boolean().optional(),
      })
      .strict(),
    response: ResultSample,
  },
  /**
   * A column's profile, from the cached result; else on a random sample the service draws, which
   * it draws of whole results only (with `filters`: bad_request, details `{ wholeResultOnly: true }`).
   */
  'results:profile': {
    request: z.object({ accountId, executionId, column: z.string().min(1).max(500), filters: resultView.filters }).strict(),
    response: ColumnProfile,
  },
  /**
   * Two finished runs compared from the cache (not_found, details `{ notCached: [ids] }`, until
   * both are there: `results:cache` brings them); with `key`, row by row.
   */
  'results:compare': {
    request: z.object({ accountId, a: executionId, b: executionId, key: z.string().min(1).max(500).optional() }).strict(),
    response: RunComparison,
  },
  'results:cacheStatus': {
    request: z.object({ accountId, executionId }).strict(),
    response: CacheStatus,
  },
  /**
   * Downloads the whole result into the cache in the background when it fits the budget (answers at
   * once; progress comes as `results:cacheStatus` events). Answers `too_large` instead when it does not.
   */
  'results:cache': {
    request: z.object({ accountId, executionId, allowPartial: z.boolean().optional() }).strict(),
    response: CacheStatus,
  },
  /** Stops a download; the cache stays as it was before it. */
  'results:cacheCancel': {
    request: z.object({ accountId, executionId }).strict(),
    response: CacheStatus,
  },
  /** The cache's budget (a setting, 2 GB by default) and what it holds; a new budget evicts past it at once. */
  'results:cacheSettings': {
    request: z.object({ budgetBytes: z.number().int().min(0).max(2 ** 50).optional() }).strict(),
    response: CacheUsage,
  },
  /** Aggregated in main from the cached result (at most `maxPoints`, 2000 by default); `not_found` when not cached. */
  'results:chart': {
    request: ChartRequest,
    response: ChartData,
  },
  /**
   * A CSV of the whole result or of the view, streamed from the cache when it holds the result,
   * else from the service. Parquet and JSON lines are written from the cache only: a result not in
   * it is downloaded into it first (state `caching`); one larger than the cache's budget is refused. The Electron host asks where to save it first (closing the dialog answers
   * `cancelled`); the browser host answers a download URL. Progress comes as `results:exportProgress`.
   */
  'results:export': {
    request: ExportRequest,
    response: ExportStarted,
  },
  'results:exportCancel': {
    request: z.object({ exportId: z.string().min(1).max(100) }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
  ...tableChannels,
  ...uiChannels,
  ...workspaceChannels,
  ...settingsChannels,
} as const satisfies Record<ChannelName, { request: z.ZodType; response: z.ZodType }>;

export type ChannelRequest<C extends ChannelName> = z.input<(typeof channels)[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<(typeof channels)[C]['response']>;
