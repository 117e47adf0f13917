import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Account } from '../accounts/account-store.ts';
import { badRequest, HttpError, notFound } from '../http/http-error.ts';
import { parseJsonObject, readBody, saveBody, saveJsonField } from '../http/request-body.ts';
import type { Handler, Reply, Router } from '../http/router.ts';
import { Slots, SlotsByKey } from '../http/slots.ts';
import { validateBody } from '../http/validate-body.ts';
import { pageWindow } from '../results/paging.ts';
import type { ServiceContext } from '../service-context.ts';
import { assertRoom, DATA_FLOOR_BYTES, isDiskFull } from '../storage/disk-full.ts';
import { removeQuietly, type SourceFormat } from '../tables/table-data.ts';
import {
  badColumnName,
  COLUMN_TYPES,
  CreateTableBody,
  listedColumnType,
  MAX_INSERT_BYTES,
  MAX_UPLOAD_BYTES,
  repeatedColumnName,
  STORAGE_BY_PLAN,
  UploadCsvFields,
} from '../tables/table-input.ts';
import type { TableRecord } from '../tables/table-store.ts';

const MB = 1024 * 1024;
// JSON escapes take at most six bytes a character (`\u0000`), and the fields besides `data` are small
const MAX_JSON_BYTES_PER_BYTE = 6;
const SMALL_FIELDS_BYTES = 64 * 1024;
// Upload bodies read at once, and waiting, in each context: a client sets the pace of its body, so a
// context's slow uploads hold up its own only (see Slots)
const UPLOAD_SLOTS = 2;
const UPLOADS_WAITING = 32;
// Uploads read into tables by DuckDB at once, and waiting, across all contexts: each holds a file of
// the disk and memory every context shares, at the service's pace (the body is in by then)
const STORING_SLOTS = 2;
const STORING_WAITING = 64;
const FORMATS: Record<string, SourceFormat> = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

/**
 * DuckDB's refusal of the data itself (bad CSV, a value its column cannot hold): the client's to
 * fix. It names the file the body was saved to, a host path, which it shows hidden.
 */
function dataError(error: unknown, what: string, hidePaths: (text: string) => string): unknown {
  // A refusal already in words (the table went meanwhile), or a full disk (not the data's fault), stays as it is.
  if (error instanceof HttpError || isDiskFull(error)) return error;
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return badRequest(`${what}: ${hidePaths(message)}`);
}

export function addTableRoutes(router: Router<Account>, context: ServiceContext): void {
  const { tables, tableData, config, hidePaths } = context;
  const catalog = config.serviceName.toLowerCase();
  const fullName = (namespace: string, table: string) => `${catalog}.${namespace}.${table}`;
  const tempFile = (extension: string) => join(config.tempDir, `upload-${randomBytes(8).toString('hex')}.${extension}`);

  const reading = new SlotsByKey(() => new Slots(UPLOAD_SLOTS, UPLOADS_WAITING, "uploads of this key's context"));
  const storing = new Slots(STORING_SLOTS, STORING_WAITING, 'uploads being stored');

  const storageRefusal = (caller: Account, used: number, adding: number) =>
    new HttpError(
      402,
      `upload storage of the ${caller.plan} plan (${STORAGE_BY_PLAN[caller.plan] / MB} MB) would be exceeded: ` +
        `${used} bytes used, ${adding} more asked`,
    );

  async function checkStorage(caller: Account, adding: number, replacing: { namespace: string; tableName: string } | null) {
    const used = await tables.storageUsed(caller.id, replacing);
    if (used + adding > STORAGE_BY_PLAN[caller.plan]) throw storageRefusal(caller, used, adding);
  }

  /**
   * Before a byte of the body is read: refused when its declared size is over `maxBody`, or when
   * even the smallest data that size could hold (`minData`) would not fit the plan's storage.
   */
  function checkDeclared(caller: Account, request: { headers: { 'content-length'?: string } }, maxBody: number, minData: (body: number) => number) {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBody) throw new HttpError(413, `the request body is larger than ${maxBody} bytes`);
    if (minData(declared) > STORAGE_BY_PLAN[caller.plan]) throw storageRefusal(caller, 0, minData(declared));
  }

  /** Checks data as it streams in: over the size limit (413), over the storage still free (402), or the disk (507). */
  const streamLimit = (caller: Account, maxBytes: number, tooLarge: string, used: number) => (bytes: number) => {
    if (bytes > maxBytes) throw new HttpError(413, tooLarge);
    if (used + bytes > STORAGE_BY_PLAN[caller.plan]) throw storageRefusal(caller, used, bytes);
    assertRoom(config.tempDir, DATA_FLOOR_BYTES);
  };

  /** The caller's own table; another context's is 404 when private, 403 otherwise. */
  async function ownTable(caller: Account, namespace: string, table: string): Promise<TableRecord> {
    const record = await tables.get(namespace, table);
    if (!record || (record.accountId !== caller.id && record.isPrivate)) throw notFound(`table ${namespace}.${table} not found`);
    if (record.accountId !== caller.id) throw new HttpError(403, `table ${namespace}.${table} belongs to another context`);
    return record;
  }

  // Each endpoint answers at its legacy `/table` path and at the `/uploads` path that replaces it.
  const both = (method: string, legacy: string, current: string, handler: Handler<Account>) => {
    router.add(method, `/api/v1/${legacy}`, handler);
    router.add(method, `/api/v1/${current}`, handler);
  };

  both('POST', 'table/upload/csv', 'uploads/csv', async ({ request, caller }) => {
    const tooLarge = `the upload must be smaller than ${MAX_UPLOAD_BYTES / MB} MB`;
    checkDeclared(caller, request, MAX_UPLOAD_BYTES * MAX_JSON_BYTES_PER_BYTE + SMALL_FIELDS_BYTES, (body) =>
      Math.floor((body - SMALL_FIELDS_BYTES) / MAX_JSON_BYTES_PER_BYTE),
    );
    const file = tempFile('csv');
    const staged = await reading.run(caller.id, async () => {
      try {
        // the table it replaces is named in the body, maybe after the data: until the body is in,
        // the plan's whole storage bounds the data, and the exact check follows
        const limit = streamLimit(caller, MAX_UPLOAD_BYTES - 1, tooLarge, 0);
        const { fields, bytes } = await saveJsonField(request, file, 'data', config.bodyIdleMillis, limit);
        const body = validateBody(UploadCsvFields, fields);
        if (bytes === null || bytes === 0) throw badRequest('Invalid request body payload: data: data must hold the CSV text');
        if (body.is_private && caller.plan !== 'premium') {
          throw new HttpError(403, `private uploads need a premium plan; '${caller.handle}' is on the ${caller.plan} plan`);
        }
        const target = `dataset_${body.table_name}`;
        await checkStorage(caller, bytes, { namespace: caller.handle, tableName: target });
        try {
          return { body, bytes, target, ...(await storing.run(() => tableData.stage(file, 'csv', false))) };
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
    return { json: { success: true, table_name: body.table_name, full_name: fullName(namespace, target) } };
  });

  both('POST', 'table/create', 'uploads', async ({ request, caller }) => {
    const body = validateBody(CreateTableBody, parseJsonObject(await readBody(request, MB, config.bodyIdleMillis)));
    if (body.namespace !== caller.handle) {
      throw new HttpError(403, `namespace must be the handle of the key's context ('${caller.handle}')`);
    }
    if (body.is_private && caller.plan !== 'premium') {
      throw new HttpError(403, `private tables need a premium plan; '${caller.handle}' is on the ${caller.plan} plan`);
    }
    const bad = badColumnName(body.schema.map((c) => c.name));
    if (bad !== null) throw badRequest(`column name '${bad}' is not allowed: a column name must start with a letter`);
    const repeated = repeatedColumnName(body.schema.map((c) => c.name));
    if (repeated !== null) throw badRequest(`column name '${repeated}' is given twice in schema (names are compared without case)`);
    if (await tables.get(body.namespace, body.table_name)) {
      throw new HttpError(409, `table ${body.namespace}.${body.table_name} already exists`);
    }
    const file = await tableData.create(
      body.schema.map((c) => ({ name: c.name, type: COLUMN_TYPES[c.type]!, nullable: c.nullable })),
    );
    await tableData.publish({
      namespace: body.namespace,
      tableName: body.table_name,
      accountId: caller.id,
      description: body.description,
      isPrivate: body.is_private,
      sizeBytes: 0,
      file,
    });
    const name = fullName(body.namespace, body.table_name);
    return {
      json: {
        namespace: body.namespace,
        table_name: body.table_name,
        full_name: name,
        example_query: `select * from ${name} limit 10`,
        message: 'Table created successfully',
        already_existed: false,
      },
    };
  });

  both('POST', 'table/:namespace/:table/insert', 'uploads/:namespace/:table/insert', async ({ request, caller, params }) => {
    const record = await ownTable(caller, params.namespace!, params.table!);
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const format = FORMATS[contentType];
    if (!format) throw badRequest(`Content-Type must be text/csv or application/x-ndjson, got '${contentType}'`);
    checkDeclared(caller, request, MAX_INSERT_BYTES, (body) => body);
    const file = tempFile(format);
    return reading.run(caller.id, async () => {
      try {
        const used = await tables.storageUsed(caller.id, null);
        const tooLarge = `the request body is larger than ${MAX_INSERT_BYTES} bytes`;
        const bytes = await saveBody(request, file, config.bodyIdleMillis, streamLimit(caller, MAX_INSERT_BYTES, tooLarge, used));
        await checkStorage(caller, bytes, null);
        return await storing.run(() => insertStaged(record, file, format, bytes));
      } finally {
        await removeQuietly(file);
      }
    });
  });

  /** Reads an insert's body, saved to `file`, into its table: all its rows, or none. */
  async function insertStaged(record: TableRecord, file: string, format: SourceFormat, bytes: number): Promise<Reply> {
    let staged;
    try {
      staged = await tableData.stage(file, format, format === 'csv');
    } catch (error) {
      throw dataError(error, `could not read the ${format === 'csv' ? 'CSV' : 'NDJSON'}`, hidePaths);
    }
    const expected = (await tableData.columns(record)).map((c) => c.name);
    const unknown = staged.columns.filter((c) => !expected.includes(c));
    const missing = expected.filter((c) => !staged.columns.includes(c));
    if (unknown.length > 0 || missing.length > 0) {
      await tableData.discard(staged.file);
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
    return { json: { rows_written: staged.rows, bytes_written: bytes, name: fullName(record.namespace, record.tableName) } };
  }

  both('GET', 'tables', 'uploads', async ({ caller, url }) => {
    const window = pageWindow(url, 10_000, 50);
    const records = await tables.list(caller.id, window.limit + 1, window.offset);
    const page = records.slice(0, window.limit);
    const listed = [];
    for (const record of page) {
      const columns = await tableData.columns(record).catch((error: unknown) => {
        // Deleted while the list was read: listed as it is now, without it.
        if (error instanceof HttpError && error.status === 404) return null;
        throw error;
      });
      if (columns === null) continue;
      listed.push({
        full_name: fullName(record.namespace, record.tableName),
        is_private: record.isPrivate,
        table_size_bytes: String(record.sizeBytes),
        created_at: record.createdAt,
        updated_at: record.updatedAt,
        purged_at: null,
        owner: { handle: caller.handle, type: caller.kind },
        columns: columns.map((c) => ({ name: c.name, type: listedColumnType(c.type), nullable: c.nullable, metadata: {} })),
      });
    }
    const more = records.length > window.limit;
    return { json: more ? { tables: listed, next_offset: window.offset + window.limit } : { tables: listed } };
  });

  both('POST', 'table/:namespace/:table/clear', 'uploads/:namespace/:table/clear', async ({ caller, params }) => {
    const record = await ownTable(caller, params.namespace!, params.table!);
    await tableData.clear(record);
    return { json: { message: `Table ${fullName(record.namespace, record.tableName)} successfully cleared` } };
  });

  both('DELETE', 'table/:namespace/:table', 'uploads/:namespace/:table', async ({ caller, params }) => {
    const record = await ownTable(caller, params.namespace!, params.table!);
    await tableData.drop(record);
    return { json: { message: `Table ${record.namespace}.${record.tableName} successfully deleted` } };
  });
}
