import { z } from 'zod';
import { accountId, executionId, ExecutionListItem, ExecutionUpdate, ParameterValues, queryId } from './models.ts';

// The executions' channels: runs started, watched, cancelled and remembered by main.

/** What the header shows above the latest result: which run, with which values, from where. */
export const LatestResult = z.object({
  execution: ExecutionUpdate,
  /** The values that run was given; null when not known (a run started elsewhere). */
  parameters: ParameterValues.nullable(),
  /** The whole result is in the cache: browsable offline. */
  isCached: z.boolean(),
  /** `local`: a run this app knows; `service`: the service's latest result of the query. */
  source: z.enum(['local', 'service']),
});
export type LatestResult = z.infer<typeof LatestResult>;

/** A run as the history panel lists it: what ran, where, how it ended and what it gave. */
export const HistoryEntry = z.object({
  accountId,
  accountName: z.string(),
  executionId: z.string(),
  /** 0 for SQL of no query (a scratch tab's). */
  queryId: z.number().int(),
  queryName: z.string().nullable(),
  /** The text that ran: an edit's or a scratch tab's, else the query's as saved then ('' if unknown). */
  sql: z.string(),
  /** The text was not the query as saved. */
  isEdited: z.boolean(),
  parameters: ParameterValues,
  state: z.string(),
  isFinished: z.boolean(),
  submittedAt: z.string(),
  endedAt: z.string().nullable(),
  durationMs: z.number().int().nonnegative().nullable(),
  rows: z.number().int().nullable(),
  /** Cells of the result, as the service bills them. */
  datapoints: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const executionsChannels = {
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
    request: z
      .object({ accountId, queryId: queryId.nullable(), sql: z.string().min(1).max(1_000_000), parameters: ParameterValues.optional() })
      .strict(),
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
   * Every run this app started, of every account (or of `accountId`), newest first: those whose
   * query name, SQL, parameters, account, state, execution id or day hold every word of `text`.
   * `total` counts them all; `skipped`, the history's lines that could not be read.
   */
  'executions:history': {
    request: z
      .object({ text: z.string().max(500), accountId: accountId.optional(), limit: z.number().int().min(1).max(500).optional() })
      .strict(),
    response: z.object({ entries: z.array(HistoryEntry), total: z.number().int(), skipped: z.number().int() }),
  },
  /**
   * Which execution the UI shows now (null: none). An execution that ends while the user looks
   * elsewhere gets a desktop notification in the Electron host.
   */
  'executions:viewing': {
    request: z.object({ viewing: z.object({ accountId, executionId }).strict().nullable() }).strict(),
    response: z.object({}),
  },
  /**
   * The latest finished run of the query to show when it is opened: the newest this app knows
   * whose values equal `parameters` (when given), else the newest of any values, else (online) the
   * service's latest result (`GET /query/{id}/results`), whose download into the cache then starts
   * in the background. Null when there is none.
   */
  'executions:latest': {
    request: z.object({ accountId, queryId, parameters: ParameterValues.optional() }).strict(),
    response: LatestResult.nullable(),
  },
} as const;

export const executionsEvents = {
  'execution:update': ExecutionUpdate,
  /** The user asked to see this execution from outside the window (a click on its desktop notification). */
  'execution:show': z.object({ accountId, executionId: z.string() }),
} as const;
