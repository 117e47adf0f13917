import { z } from 'zod';
import { accountId, ParameterDefinition, ParameterValues, QueryDetail, queryId, QuerySummary } from './models.ts';
import { ERROR_CODES } from './result.ts';
import { TableSummary } from './tables.ts';

// The local-first workspace: main keeps, per account and on disk, what the user saw and typed
// (the queries list and details as last fetched, the tables, drafts, edits waiting to be sent),
// answers it at once, and refreshes it from the service when the service answers.

/**
 * How the active account's service answers, as main last saw it (not the window-to-main link):
 * `checking` while a refresh is under way, `offline` after a network failure (retried with
 * backoff), `key_refused` when the service refused the key (no automatic retry).
 */
export const SyncStatus = z.enum(['checking', 'online', 'offline', 'key_refused']);
export type SyncStatus = z.infer<typeof SyncStatus>;

export const SyncState = z.object({
  accountId,
  status: SyncStatus,
  /** When the service last answered a refresh (ISO); null when it never has. */
  lastSyncedAt: z.string().nullable(),
  /** Since when it has not answered (ISO), while offline. */
  offlineSince: z.string().nullable(),
  /** Why it is offline or refused, in plain words. */
  reason: z.string().nullable(),
  /** When the next automatic retry happens (ISO), while offline. */
  nextRetryAt: z.string().nullable(),
});
export type SyncState = z.infer<typeof SyncState>;

/** A query of the list as last fetched; what only the detail says is null until it was opened once. */
export const LocalQuery = QuerySummary.extend({
  isPrivate: z.boolean().nullable(),
  isArchived: z.boolean().nullable(),
  /** The SQL as its detail was last fetched (searched in the list); null until fetched. */
  sql: z.string().nullable().optional(),
  /**
   * The service stopped listing it (deleted, or no longer this context's) while a draft or an
   * edit waiting to be sent still refers to it: kept so nothing typed is lost.
   */
  isGone: z.boolean(),
});
export type LocalQuery = z.infer<typeof LocalQuery>;

/** Which query a draft belongs to: a saved one, or a new one not created yet (an id the renderer made). */
export const DraftKey = z.union([
  z.object({ queryId }).strict(),
  z.object({ newId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'newId must be 1-64 letters, digits or dashes') }).strict(),
]);
export type DraftKey = z.infer<typeof DraftKey>;

/** Unsaved editor state, kept on disk within a second of typing. */
export const Draft = z.object({
  key: DraftKey,
  /** For a new query: its name as typed. */
  name: z.string().max(300).optional(),
  sql: z.string().max(1_000_000),
  parameterValues: ParameterValues,
  /** The query version the text was started from (null for a new query). */
  baseVersion: z.number().int().nullable(),
  /** Whether `sql` differs from the query's saved SQL (a draft may hold parameter values only); taken as true when absent. */
  sqlEdited: z.boolean().optional(),
  /**
   * A new query the user asked to create while the service could not be reached: created as soon
   * as it answers (then the draft goes). Ignored for a saved query's draft.
   */
  createWhenOnline: z.boolean().optional(),
  /** Why the service refused to create it, when it did (the draft stays for the user to fix). */
  refusal: z.string().max(2000).optional(),
  updatedAt: z.string(),
});
export type Draft = z.infer<typeof Draft>;

/** The fields a save changes; those left out stay as they are. */
export const QueryEdit = z
  .object({
    name: z.string().trim().min(1).max(300).optional(),
    sql: z.string().min(1).max(1_000_000).optional(),
    description: z.string().max(10_000).optional(),
    tags: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
    parameters: z.array(ParameterDefinition).max(200).optional(),
  })
  .strict();
export type QueryEdit = z.infer<typeof QueryEdit>;

/**
 * A save that could not be sent yet (the service was unreachable), sent when it answers again.
 * `conflict`: the query's version moved on the service meanwhile; the user chooses.
 * `refused`: the service refused it (its words in `error`); kept until the user discards or edits it.
 */
export const PendingEdit = z.object({
  queryId,
  baseVersion: z.number().int(),
  edit: QueryEdit,
  savedAt: z.string(),
  state: z.enum(['waiting', 'conflict', 'refused']),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).nullable(),
  /** The service's version, when in conflict. */
  theirs: QueryDetail.nullable(),
});
export type PendingEdit = z.infer<typeof PendingEdit>;

export const WorkspaceSnapshot = z.object({
  accountId,
  queries: z.array(LocalQuery),
  /** When the list was last fetched from the service (ISO); null: never, the list is empty. */
  queriesFetchedAt: z.string().nullable(),
  tables: z.array(TableSummary),
  tablesFetchedAt: z.string().nullable(),
  drafts: z.array(Draft),
  pending: z.array(PendingEdit),
  sync: SyncState,
});
export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshot>;

/** A query as last fetched, from disk. */
export const LocalQueryDetail = z.object({ query: QueryDetail, fetchedAt: z.string() });

export const workspaceChannels = {
  /**
   * The account's workspace from disk, at once; a refresh from the service starts in the
   * background (the list, the tables, then edits waiting to be sent). What it changes comes as
   * `workspace:changed` events, the service's state as `workspace:sync` events.
   */
  'workspace:open': {
    request: z.object({ accountId }).strict(),
    response: WorkspaceSnapshot,
  },
  /** Try again now (the button, or the renderer saw the network come back); answers after the attempt. */
  'workspace:refresh': {
    request: z.object({ accountId }).strict(),
    response: SyncState,
  },
  /** The OS says the network is back (or gone): an offline account is retried at once. */
  'workspace:network': {
    request: z.object({ online: z.boolean() }).strict(),
    response: z.object({}),
  },
  /** A query's detail as last fetched, from disk only (null when never fetched); `queries:get` refreshes it. */
  'workspace:query': {
    request: z.object({ accountId, queryId }).strict(),
    response: LocalQueryDetail.nullable(),
  },
  /** Written to disk before it answers. Text equal to the saved SQL with default values is no draft: send `workspace:discardDraft`. */
  'workspace:saveDraft': {
    request: z.object({ accountId, draft: Draft.omit({ updatedAt: true, refusal: true }) }).strict(),
    response: z.object({ updatedAt: z.string() }),
  },
  'workspace:discardDraft': {
    request: z.object({ accountId, key: DraftKey }).strict(),
    response: z.object({}),
  },
} as const;

export const workspaceEvents = {
  /** The workspace changed on disk (a refresh, a pending edit sent or in conflict): the new snapshot. */
  'workspace:changed': WorkspaceSnapshot,
  'workspace:sync': SyncState,
} as const;
