import { z } from 'zod';

// Shapes shared by several channels and events.

export const accountId = z.string().min(1).max(200);
export const executionId = z.string().min(1).max(200);

/**
 * Where an account's API key is: given by the host (Local, never stored), in the OS keychain, in
 * memory for this session only, or nowhere readable (the keychain is unreachable or lost the entry:
 * the UI asks for the key again through `accounts:update`).
 */
export const KeyStorage = z.enum(['host', 'keychain', 'session', 'missing']);
export type KeyStorage = z.infer<typeof KeyStorage>;

export const KeychainStatus = z.object({
  available: z.boolean(),
  /** Why it is not, in plain words, when it is not. */
  reason: z.string().optional(),
});
export type KeychainStatus = z.infer<typeof KeychainStatus>;

export const Account = z.object({
  id: accountId,
  label: z.string(),
  kind: z.enum(['user', 'team']),
  handle: z.string().nullable(),
  baseUrl: z.string(),
  serviceName: z.string(),
  /** Only a masked suffix such as "••••a1b2"; the key itself never leaves main. */
  keyHint: z.string(),
  keyStorage: KeyStorage,
  isLocal: z.boolean(),
});
export type Account = z.infer<typeof Account>;

export const queryId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const QuerySummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  owner: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type QuerySummary = z.infer<typeof QuerySummary>;

/** An enum whose options are the values of a column of another query's latest result. */
export const EnumFromResults = z.object({ queryId, columnName: z.string().min(1).max(1000) }).strict();
export type EnumFromResults = z.infer<typeof EnumFromResults>;

/**
 * A parameter definition as the service's query records carry it. Every documented field is kept,
 * those this app does not edit too: saving the list sends it whole, and what it leaves out is gone.
 */
export const QueryParameter = z.object({
  key: z.string(),
  type: z.string(),
  value: z.string(),
  description: z.string().optional(),
  enumOptions: z.array(z.string()).optional(),
  isMultiselect: z.boolean().optional(),
  /** An enum that takes a value outside its options too. */
  isFreeformAllowed: z.boolean().optional(),
  enumFromResults: EnumFromResults.optional(),
  values: z.array(z.string()).optional(),
});
export type QueryParameter = z.infer<typeof QueryParameter>;

/** A parameter definition as the query endpoints take it (camelCase keys, the value as text). */
export const ParameterDefinition = z
  .object({
    key: z.string().min(1).max(200),
    type: z.enum(['text', 'number', 'datetime', 'enum']),
    value: z.string().max(10_000),
    description: z.string().max(2000).optional(),
    enumOptions: z.array(z.string().max(1000)).max(1000).optional(),
    isMultiselect: z.boolean().optional(),
    isFreeformAllowed: z.boolean().optional(),
    enumFromResults: EnumFromResults.optional(),
    values: z.array(z.string().max(10_000)).max(1000).optional(),
  })
  .strict();
export type ParameterDefinition = z.infer<typeof ParameterDefinition>;

export const QueryDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  owner: z.string(),
  tags: z.array(z.string()),
  version: z.number().int(),
  sql: z.string(),
  parameters: z.array(QueryParameter),
  isPrivate: z.boolean(),
  isArchived: z.boolean(),
});
export type QueryDetail = z.infer<typeof QueryDetail>;

/** Wire strings of the service. Unknown future states are passed through as plain strings. */
export const KNOWN_STATES = [
  'QUERY_STATE_PENDING',
  'QUERY_STATE_EXECUTING',
  'QUERY_STATE_COMPLETED',
  'QUERY_STATE_COMPLETED_PARTIAL',
  'QUERY_STATE_FAILED',
  'QUERY_STATE_CANCELLED',
  'QUERY_STATE_EXPIRED',
] as const;
export type KnownState = (typeof KNOWN_STATES)[number];

export const ExecutionError = z.object({
  type: z.string(),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type ExecutionError = z.infer<typeof ExecutionError>;

export const ResultSummary = z.object({
  columnNames: z.array(z.string()),
  columnTypes: z.array(z.string()),
  totalRowCount: z.number().int(),
  totalBytes: z.number().int(),
  executionTimeMillis: z.number().int().nullable(),
  /** Cells, as the service counts them for billing (`datapoint_count`); absent where it did not say. */
  datapointCount: z.number().int().nullable().optional(),
});
export type ResultSummary = z.infer<typeof ResultSummary>;

export const ExecutionUpdate = z.object({
  accountId,
  executionId: z.string(),
  queryId: z.number().int().nullable(),
  state: z.string(),
  isFinished: z.boolean(),
  queuePosition: z.number().int().nullable(),
  submittedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Time since submission as measured by main, so the UI can show it without its own clock skew. */
  elapsedMs: z.number().int().nonnegative(),
  error: ExecutionError.nullable(),
  result: ResultSummary.nullable(),
  /**
   * The service refused the last status check for its rate limit: the next is not asked for before
   * this time (ISO 8601), the wait it said or the app's own backoff. Absent once a check is answered.
   */
  rateLimitedUntil: z.string().optional(),
});
export type ExecutionUpdate = z.infer<typeof ExecutionUpdate>;

/** A cell as JSON carries it: integers beyond 2^53 and timestamps arrive as strings. */
export const CellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof CellValue>;

/** Set when the answer came from the cache (the whole result is held locally, so it works offline). */
export const FromCache = z.object({ fetchedAt: z.string() });
export type FromCache = z.infer<typeof FromCache>;

export const ResultPage = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  /** Rows as arrays in `columns` order: compact across IPC, and safe for any column name. */
  rows: z.array(z.array(CellValue)),
  startRow: z.number().int().nonnegative(),
  totalRowCount: z.number().int().nonnegative(),
  /** The service truncated this result (QUERY_STATE_COMPLETED_PARTIAL): rows past the cut are missing. */
  isPartial: z.boolean(),
  /** Present when answered from the cache: when the result was fetched. */
  fromCache: FromCache.optional(),
});
export type ResultPage = z.infer<typeof ResultPage>;

/** Values sent as `query_parameters`: the service takes text, or a list for a multi-select enum. */
export const ParameterValues = z.record(z.string().min(1).max(200), z.union([z.string(), z.array(z.string())]));
export type ParameterValues = z.infer<typeof ParameterValues>;

/** An execution this app started, as remembered across restarts (per account, newest first). */
export const ExecutionRecord = z.object({
  accountId,
  executionId: z.string(),
  queryId: z.number().int(),
  parameters: ParameterValues,
  state: z.string(),
  isFinished: z.boolean(),
  /** When the app sent it, by the app's clock. */
  submittedAt: z.string(),
  /** When the app saw it end; null while it runs. */
  endedAt: z.string().nullable(),
  error: ExecutionError.nullable(),
  totalRowCount: z.number().int().nullable(),
  /** As the service last reported them, so a finished run can be shown without it (offline). */
  startedAt: z.string().nullable().optional(),
  expiresAt: z.string().nullable().optional(),
  result: ResultSummary.nullable().optional(),
  /** The SQL text that ran, when it was not the query as saved (`executions:runSql`). */
  sql: z.string().optional(),
  /** A saved query's name and text when it ran, as this app knew them (for the history). */
  queryName: z.string().optional(),
  querySql: z.string().optional(),
});
export type ExecutionRecord = z.infer<typeof ExecutionRecord>;

/** A remembered execution as listed: whether its whole result is in the cache (browsable offline). */
export const ExecutionListItem = ExecutionRecord.extend({ isCached: z.boolean() });
export type ExecutionListItem = z.infer<typeof ExecutionListItem>;
