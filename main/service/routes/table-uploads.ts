import type { IncomingMessage } from 'node:http';
import { duckdbErrorGist } from '../../common/duckdb-errors.ts';
import type { ServiceAccount } from '../accounts/account-store.ts';
import { badRequest, HttpError } from '../http/http-error.ts';
import { saveBody, saveJsonField } from '../http/request-body.ts';
import type { Handler, Reply } from '../http/router.ts';
import { validateBody } from '../http/validate-body.ts';
import { isDiskFull } from '../storage/disk-full.ts';
import { removeQuietly, type SourceFormat } from '../tables/table-data.ts';
import { badColumnName, MAX_INSERT_BYTES, MAX_INSERT_GB, MAX_UPLOAD_BYTES, UploadCsvFields } from '../tables/table-input.ts';
import type { TableRecord } from '../tables/table-store.ts';
import type { TableAccess } from './table-access.ts';
import type { UploadRule, UploadStorage } from './upload-storage.ts';

const MB = 1024 * 1024;
// JSON escapes take at most six bytes a character (`\u0000`), and the fields besides `data` are small
const MAX_JSON_BYTES_PER_BYTE = 6;
const SMALL_FIELDS_BYTES = 64 * 1024;
const FORMATS: Record<string, SourceFormat> = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

const CSV_UPLOAD: UploadRule = {
  maxData: MAX_UPLOAD_BYTES - 1,
  tooLarge: `the upload must be smaller than ${MAX_UPLOAD_BYTES / MB} MB (${MAX_UPLOAD_BYTES} bytes)`,
  minData: (body) => Math.max(0, Math.floor((body - SMALL_FIELDS_BYTES) / MAX_JSON_BYTES_PER_BYTE)),
  // the table it replaces is named in the body, maybe after the data
  mayReplace: true,
};

const INSERT: UploadRule = {
  maxData: MAX_INSERT_BYTES,
  tooLarge: `an insert's body must be at most ${MAX_INSERT_GB} GB (${MAX_INSERT_BYTES} bytes)`,
  minData: (body) => body,
  mayReplace: false,
};

/**
 * DuckDB's refusal of the data itself (bad CSV, a value its column cannot hold): the client's to
 * fix, told what was wrong and where (a CSV error's line, the line itself and the column) without
 * the advice on DuckDB's own options that follows. It names the file the body was saved to, a host
 * path, which it shows hidden.
 */
function dataError(error: unknown, what: string, hidePaths: (text: string) => string): unknown {
  // A refusal already in words (the table went meanwhile), or a full disk (not the data's fault), stays as it is.
  if (error instanceof HttpError || isDiskFull(error)) return error;
  // paths hidden before lines are cut, so that no part of one is left
  const message = hidePaths(error instanceof Error ? error.message : String(error));
  return badRequest(`${what}: ${duckdbErrorGist(message)}`);
}

/** `POST uploads/csv`: a new table (or one in place of the caller's of that name) from a CSV text in a JSON body. */
export function uploadCsv(access: TableAccess): Handler<ServiceAccount> {
  return async ({ request, caller }) => {
    const storage = await access.storage.start(caller, request, CSV_UPLOAD);
    try {
      return await storeCsv(access, request, caller, storage);
    } finally {
      storage.release();
    }
  };
}

/** Reads a CSV upload's body and makes it the table, within the storage the upload holds. */
async function storeCsv(access: TableAccess, request: IncomingMessage, caller: ServiceAccount, storage: UploadStorage): Promise<Reply> {
  const { tableData, config, hidePaths } = access.deps;
  const file = access.tempFile('csv');
  const staged = await access.reading.run(caller.id, async () => {
    try {
      const { fields, bytes } = await saveJsonField(request, file, 'data', config.bodyIdleMillis, storage.streamLimit());
      const body = validateBody(UploadCsvFields, fields);
      if (bytes === null || bytes === 0) throw badRequest('Invalid request body payload: data: data must hold the CSV text');
      if (body.is_private && caller.plan !== 'premium') {
        throw new HttpError(403, `private uploads need a premium plan; '${caller.handle}' is on the ${caller.plan} plan`);
      }
      const target = `dataset_${body.table_name}`;
      await storage.check(bytes, { namespace: caller.handle, tableName: target });
      try {
        return { body, bytes, target, ...(await access.storing.run(() => tableData.stage(file, 'csv', false))) };
      } catch (error) {
        throw dataError(error, 'could not read the CSV', hidePaths);
      }
    } finally {
      await removeQuietly(file);
    }
  });
  const { body, bytes, target } = staged;
  const namespace = caller.handle;
  const bad = badColumnName(staged.columns);
  if (bad !== null) {
    await tableData.discard(staged.file);
    throw badRequest(`column name '${bad}' is not allowed: a column name must start with a letter`);
  }
  await tableData.publish({
    namespace,
    tableName: target,
    accountId: caller.id,
    description: body.description,
    isPrivate: body.is_private,
    sizeBytes: bytes,
    file: staged.file,
  });
  return { json: { success: true, table_name: body.table_name, full_name: access.fullName(namespace, target) } };
}

/** `POST uploads/:namespace/:table/insert`: CSV or NDJSON rows added to the caller's table. */
export function insertRows(access: TableAccess): Handler<ServiceAccount> {
  const { config } = access.deps;
  return async ({ request, caller, params }) => {
    const record = await access.ownTable(caller, params.namespace!, params.table!);
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const format = FORMATS[contentType];
    if (!format) throw badRequest(`Content-Type must be text/csv or application/x-ndjson, got '${contentType}'`);
    const storage = await access.storage.start(caller, request, INSERT);
    const file = access.tempFile(format);
    try {
      return await access.reading.run(caller.id, async () => {
        try {
          const bytes = await saveBody(request, file, config.bodyIdleMillis, storage.streamLimit());
          await storage.check(bytes, null);
          return await access.storing.run(() => insertStaged(access, record, file, format, bytes));
        } finally {
          await removeQuietly(file);
        }
      });
    } finally {
      storage.release();
    }
  };
}

/** Reads an insert's body, saved to `file`, into its table: all its rows, or none. */
async function insertStaged(access: TableAccess, record: TableRecord, file: string, format: SourceFormat, bytes: number): Promise<Reply> {
  const { tableData, hidePaths } = access.deps;
  let staged;
  try {
    staged = await tableData.stage(file, format, format === 'csv');
  } catch (error) {
    throw dataError(error, `could not read the ${format === 'csv' ? 'CSV' : 'NDJSON'}`, hidePaths);
  }
  try {
    const expected = (await tableData.columns(record)).map((c) => c.name);
    const unknown = staged.columns.filter((c) => !expected.includes(c));
    const missing = expected.filter((c) => !staged.columns.includes(c));
    if (unknown.length > 0 || missing.length > 0) {
      throw badRequest(
        `the columns must match the table's (${expected.join(', ')}): ` +
          `unknown [${unknown.join(', ')}], missing [${missing.join(', ')}]`,
      );
    }
    try {
      await tableData.insert(record, staged.file, bytes);
    } catch (error) {
      throw dataError(error, 'nothing was inserted', hidePaths);
    }
  } finally {
    // `insert` copies the staged rows into a new file of the table and discards them; refused before
    // that (other columns, or the table deleted while the body came in: a 404), they go here
    await tableData.discard(staged.file);
  }
  return { json: { rows_written: staged.rows, bytes_written: bytes, name: access.fullName(record.namespace, record.tableName) } };
}
