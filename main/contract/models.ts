import { z } from 'zod';

// Shapes shared by several channels and events.

export const accountId = z.string().min(1).max(200);

export const Account = z.object({
  id: accountId,
  label: z.string(),
  kind: z.enum(['user', 'team']),
  handle: z.string().nullable(),
  baseUrl: z.string(),
  serviceName: z.string(),
  /** Only a masked suffix such as "••••a1b2"; the key itself never leaves main. */
  keyHint: z.string(),
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

export const QueryParameter = z.object({
  key: z.string(),
  type: z.string(),
  value: z.string(),
  description: z.string().optional(),
  enumOptions: z.array(z.string()).optional(),
  isMultiselect: z.boolean().optional(),
});
export type QueryParameter = z.infer<typeof QueryParameter>;

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
});
export type ExecutionUpdate = z.infer<typeof ExecutionUpdate>;

/** A cell as JSON carries it: integers beyond 2^53 and timestamps arrive as strings. */
export const CellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof CellValue>;

export const ResultPage = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  /** Rows as arrays in `columns` order: compact across IPC, and safe for any column name. */
  rows: z.array(z.array(CellValue)),
  startRow: z.number().int().nonnegative(),
  totalRowCount: z.number().int().nonnegative(),
});
export type ResultPage = z.infer<typeof ResultPage>;
