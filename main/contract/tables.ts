import { z } from 'zod';
import { columnNameKey, startsWithLetter } from '../common/column-names.ts';
import { accountId } from './models.ts';
import { TABLE_COLUMN_TYPES, TABLE_NAME_PATTERN, UPLOAD_CHUNK_MAX_CHARS } from './table-rules.ts';

// Uploaded tables: the list, and a CSV upload sent from the renderer in chunks, staged in main,
// then sent to the service in one request or in parts.

export const TableColumnType = z.enum(TABLE_COLUMN_TYPES);

export const TableColumn = z.object({
  name: z.string().min(1).max(300),
  type: TableColumnType,
});
export type TableColumn = z.infer<typeof TableColumn>;

export const TableSummary = z.object({
  /** As the user named it: the SQL table name without the `dataset_` prefix of CSV uploads. */
  name: z.string(),
  /** `dune.<handle>.dataset_<name>`, as the service names it. */
  fullName: z.string(),
  isPrivate: z.boolean(),
  sizeBytes: z.number().nullable(),
  /** Known only for tables this app uploaded. */
  rows: z.number().int().nullable(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type TableSummary = z.infer<typeof TableSummary>;

const uploadId = z.string().min(1).max(100);

/** The names the service would refuse, each at its column: checked before a byte is staged or a table deleted. */
function checkColumnNames(columns: TableColumn[], context: z.RefinementCtx): void {
  const first = new Map<string, number>();
  columns.forEach(({ name }, index) => {
    const path = [index, 'name'];
    const earlier = first.get(columnNameKey(name));
    if (!startsWithLetter(name))
      context.addIssue({ code: 'custom', path, message: `Column ${index + 1} “${name}” must start with a letter.` });
    else if (earlier !== undefined)
      context.addIssue({
        code: 'custom',
        path,
        message: `Column ${index + 1} “${name}” repeats the name of column ${earlier + 1} (names are compared without case).`,
      });
    else first.set(columnNameKey(name), index);
  });
}

export const UploadBeginRequest = z
  .object({
    accountId,
    tableName: z.string().regex(TABLE_NAME_PATTERN, 'tableName must start with a lowercase letter and hold only a-z, 0-9 and _').max(120),
    description: z.string().max(10_000),
    isPrivate: z.boolean(),
    /** The names to give the columns (the file's header row is replaced by them) and their inferred types. */
    columns: z.array(TableColumn).min(1).max(10_000).superRefine(checkColumnNames),
    /** The file's size as the form measured it: it decides, by `uploadMode`, whether the upload goes in parts. */
    fileBytes: z.number().int().nonnegative(),
    rows: z.number().int().nonnegative(),
    /** The user agreed that the upload replaces a table of the same name. */
    replace: z.boolean(),
  })
  .strict();

export const UploadChunkRequest = z
  .object({
    uploadId,
    /** 0, 1, 2…: chunks are taken in order only. */
    index: z.number().int().nonnegative(),
    text: z.string().max(UPLOAD_CHUNK_MAX_CHARS),
  })
  .strict();

export const UploadDone = z.object({
  fullName: z.string(),
  rows: z.number().int(),
  mode: z.enum(['single', 'parts']),
});
export type UploadDone = z.infer<typeof UploadDone>;

/**
 * What a failed upload left on the service, in its failure's `details.left`: `nothing` of it (a table
 * it would replace is as it was), a new table holding the `parts` confirmed so far (the table it
 * replaces was deleted before), or the replaced table `deleted` and no new one made yet.
 */
export type UploadLeft = 'nothing' | 'parts' | 'deleted';

export const UploadProgress = z.object({
  uploadId,
  phase: z.enum(['sending', 'checking', 'done', 'failed', 'cancelled']),
  sentBytes: z.number(),
  totalBytes: z.number(),
  partsDone: z.number().int(),
  partsTotal: z.number().int(),
});
export type UploadProgress = z.infer<typeof UploadProgress>;

export const tablesChannels = {
  'tables:list': {
    request: z.object({ accountId }).strict(),
    response: z.object({
      tables: z.array(TableSummary),
      /**
       * The handle that names the account's tables (`dune.<handle>.…`), before it has any: from
       * its tables, its profile or the owner of its queries; null when none of them tells.
       */
      handle: z.string().nullable(),
    }),
  },
  'tables:delete': {
    request: z.object({ accountId, fullName: z.string().min(1).max(400) }).strict(),
    response: z.object({}),
  },
  /** Opens an upload: main stages the chunks in a temporary file, nothing is sent yet. */
  'tables:uploadBegin': {
    request: UploadBeginRequest,
    response: z.object({ uploadId }),
  },
  'tables:uploadChunk': {
    request: UploadChunkRequest,
    response: z.object({ receivedBytes: z.number() }),
  },
  /**
   * Sends the staged file and answers when it is done. Progress comes as `tables:uploadProgress`.
   * A failure leaves the upload open: `tables:uploadRetry` sends what is missing (never a part twice),
   * `tables:uploadCancel` gives up. Its `details.retryable` says whether a retry can help.
   */
  'tables:uploadCommit': {
    request: z.object({ uploadId }).strict(),
    response: UploadDone,
  },
  'tables:uploadRetry': {
    request: z.object({ uploadId }).strict(),
    response: UploadDone,
  },
  /** Stops the upload; a table made from parts so far is deleted. */
  'tables:uploadCancel': {
    request: z.object({ uploadId }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const tablesEvents = {
  /** A table upload moved on, finished, failed or was cancelled. */
  'tables:uploadProgress': UploadProgress,
} as const;
