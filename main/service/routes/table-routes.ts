import type { ServiceAccount } from '../accounts/account-store.ts';
import { badRequest, HttpError } from '../http/http-error.ts';
import { parseJsonObject, readBody } from '../http/request-body.ts';
import type { Handler, Router } from '../http/router.ts';
import { validateBody } from '../http/validate-body.ts';
import { pageWindow, type PageWindow } from '../results/paging.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { badColumnName, COLUMN_TYPES, CreateTableBody, listedColumnType, repeatedColumnName } from '../tables/table-input.ts';
import { TableAccess } from './table-access.ts';
import { insertRows, uploadCsv } from './table-uploads.ts';

const MB = 1024 * 1024;
// The tables list's page: 50 tables unless asked, at most 10,000 (notes §9)
const LIST_MAX_LIMIT = 10_000;
const LIST_DEFAULT_LIMIT = 50;

export function addTableRoutes(router: Router<ServiceAccount>, deps: ServiceDeps): void {
  const access = new TableAccess(deps);
  // Each endpoint answers at its legacy `/table` path and at the `/uploads` path that replaces it.
  const addAtBothPaths = (method: string, legacy: string, current: string, handler: Handler<ServiceAccount>) => {
    router.add(method, `/api/v1/${legacy}`, handler);
    router.add(method, `/api/v1/${current}`, handler);
  };
  addAtBothPaths('POST', 'table/upload/csv', 'uploads/csv', uploadCsv(access));
  addAtBothPaths('POST', 'table/create', 'uploads', createTable(access));
  addAtBothPaths('POST', 'table/:namespace/:table/insert', 'uploads/:namespace/:table/insert', insertRows(access));
  addAtBothPaths('GET', 'tables', 'uploads', listTables(access));
  addAtBothPaths('POST', 'table/:namespace/:table/clear', 'uploads/:namespace/:table/clear', async ({ caller, params }) => {
    const record = await access.ownTable(caller, params.namespace!, params.table!);
    await deps.tableData.clear(record);
    return { json: { message: `Table ${access.fullName(record.namespace, record.tableName)} successfully cleared` } };
  });
  addAtBothPaths('DELETE', 'table/:namespace/:table', 'uploads/:namespace/:table', async ({ caller, params }) => {
    const record = await access.ownTable(caller, params.namespace!, params.table!);
    await deps.tableData.drop(record);
    return { json: { message: `Table ${record.namespace}.${record.tableName} successfully deleted` } };
  });
}

/** `POST uploads`: an empty table of the schema given. */
function createTable(access: TableAccess): Handler<ServiceAccount> {
  const { tables, tableData, config } = access.deps;
  return async ({ request, caller }) => {
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
    const file = await tableData.create(body.schema.map((c) => ({ name: c.name, type: COLUMN_TYPES[c.type]!, nullable: c.nullable })));
    await tableData.publish({
      namespace: body.namespace,
      tableName: body.table_name,
      accountId: caller.id,
      description: body.description,
      isPrivate: body.is_private,
      sizeBytes: 0,
      file,
    });
    const name = access.fullName(body.namespace, body.table_name);
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
  };
}

/** `GET uploads`: the caller's tables, a page of them, with their columns. */
function listTables(access: TableAccess): Handler<ServiceAccount> {
  const { tables, tableData } = access.deps;
  return async ({ caller, url }) => {
    const window = listWindow(url);
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
        full_name: access.fullName(record.namespace, record.tableName),
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
  };
}

/** The list's `limit` and `offset`: a negative offset is read as 0, as the real service does (notes §9); any other is checked as a page's. */
function listWindow(url: URL): PageWindow {
  if (!/^-\d+$/.test(url.searchParams.get('offset') ?? '')) return pageWindow(url, LIST_MAX_LIMIT, LIST_DEFAULT_LIMIT);
  const fromStart = new URL(url);
  fromStart.searchParams.set('offset', '0');
  return pageWindow(fromStart, LIST_MAX_LIMIT, LIST_DEFAULT_LIMIT);
}
