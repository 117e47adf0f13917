import { z } from 'zod';
import { accountId, executionId } from './models.ts';
import { TABLE_NAME_PATTERN, UPLOAD_CHUNK_MAX_CHARS } from './table-rules.ts';

// SQL over the result cache, run on this computer only (DuckDB's SQL, never sent to a service).
// Each cached result of the account is a read-only table named after its query and run; a
// statement's answer is cached as a result of its own, read with the results' channels.

const tableName = z.string().min(1).max(200);
const runId = z.string().min(1).max(100);

export const LocalSqlTable = z.object({
  /** `q_<query id>_run_<yyyymmdd_hhmm>`, or `run_<execution id>` for a run of no known query. */
  name: z.string(),
  /** Other names of the same table: `q_<query id>_latest` and the query's name for its latest run. */
  aliases: z.array(z.string()),
  executionId: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rowCount: z.number().int(),
  queryId: z.number().int().nullable(),
  queryName: z.string().nullable(),
  ranAt: z.string().nullable(),
});
export type LocalSqlTable = z.infer<typeof LocalSqlTable>;

/** A statement's answer: a cached result, read as any other by its execution id. */
export const LocalSqlResult = z.object({
  executionId: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rowCount: z.number().int(),
  ranAt: z.string(),
});
export type LocalSqlResult = z.infer<typeof LocalSqlResult>;

/** A refused or failed statement answers `bad_request` with these details when DuckDB placed it (1-based). */
export const LocalSqlErrorPlace = z.object({ line: z.number().int(), column: z.number().int() });
export type LocalSqlErrorPlace = z.infer<typeof LocalSqlErrorPlace>;

export const localsqlChannels = {
  /** The account's cached results as tables, newest run first; and the CSV files attached as tables. */
  'localsql:tables': {
    request: z.object({ accountId }).strict(),
    response: z.object({ tables: z.array(LocalSqlTable), attached: z.array(z.object({ name: tableName, bytes: z.number() })) }),
  },
  /**
   * Runs one SELECT over the cached results, offline. `replaces`: the tab's previous answer, dropped
   * from the cache once this one is in. A statement that is not a SELECT is refused.
   */
  'localsql:run': {
    request: z
      .object({
        accountId,
        sql: z.string().max(200_000),
        replaces: executionId.nullable().optional(),
        /** The caller's name for the run, to cancel it by (`localsql:cancel`). */
        runId: runId.optional(),
      })
      .strict(),
    response: LocalSqlResult,
  },
  /** Stops a run under way, which then answers `cancelled`; `cancelled` here says whether one was. */
  'localsql:cancel': {
    request: z.object({ accountId, runId }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
  /**
   * Keeps a CSV file's text as a table of local SQL, under `name`, sent in parts of at most
   * UPLOAD_CHUNK_MAX_CHARS: the first (`append` false) starts the file again, each next one adds to it.
   */
  'localsql:attachCsv': {
    request: z
      .object({
        accountId,
        name: tableName.regex(TABLE_NAME_PATTERN, 'a table name starts with a lowercase letter and holds only a-z, 0-9 and _'),
        text: z.string().max(UPLOAD_CHUNK_MAX_CHARS),
        append: z.boolean(),
      })
      .strict(),
    response: z.object({ name: tableName, bytes: z.number() }),
  },
  'localsql:detachCsv': {
    request: z.object({ accountId, name: tableName }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
} as const;
