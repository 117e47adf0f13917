import { randomBytes } from 'node:crypto';
import { sqlTableName } from '../../contract/index.ts';
import type { ClientResult, CreateTableArgs, ServiceClient, ServiceError, TableListItem } from '../service-client/index.ts';
import { splitFullName } from './table-names.ts';

// Finding things out from the service: from its table list, page by page, or from a table made to
// find out and deleted at once.

const PAGE = 1000;

/** Every table of the key's context. */
export async function listAllTables(client: ServiceClient): Promise<ClientResult<TableListItem[]>> {
  const tables: TableListItem[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = await client.tables.list({ limit: PAGE, offset });
    if (!page.ok) return page;
    tables.push(...page.data.tables);
    offset = page.data.nextOffset;
  }
  return { ok: true, data: tables };
}

/** The table of that SQL name (null when there is none), in that namespace when one is given. */
export async function findTable(
  client: ServiceClient,
  namespace: string | null,
  table: string,
): Promise<ClientResult<TableListItem | null>> {
  const listed = await listAllTables(client);
  if (!listed.ok) return listed;
  const found = listed.data.find((item) => {
    const name = splitFullName(item.fullName);
    return name !== null && name.table === table && (namespace === null || name.namespace === namespace);
  });
  return { ok: true, data: found ?? null };
}

/**
 * The user or team handle of the key's context, which names its tables' namespace: the owner of a
 * table it has, else of a query it has, else of a one-cell table uploaded to find out, then deleted.
 */
export async function resolveHandle(client: ServiceClient): Promise<string | null> {
  const tables = await client.tables.list({ limit: 1 });
  const fromTable = tables.ok ? (tables.data.tables[0]?.ownerHandle ?? null) : null;
  if (fromTable !== null) return fromTable;
  return (await queryOwner(client)) ?? probeHandle(client);
}

/** The owner of the first query the key's context lists: its handle, when it has a query. */
export async function queryOwner(client: ServiceClient): Promise<string | null> {
  const queries = await client.queries.list({ limit: 1 });
  return queries.ok ? queries.data.queries[0]?.owner || null : null;
}

async function probeHandle(client: ServiceClient): Promise<string | null> {
  const name = `querydesk_probe_${randomBytes(6).toString('hex')}`;
  const uploaded = await client.tables.uploadCsv({
    tableName: name,
    data: 'probe\n1\n',
    description: 'Querydesk: finding the namespace',
    isPrivate: false,
  });
  if (!uploaded.ok) return null;
  const found = await findTable(client, null, sqlTableName(name));
  const table = found.ok ? found.data : null;
  const namespace = table === null ? null : (splitFullName(table.fullName)?.namespace ?? null);
  if (namespace !== null) await client.tables.remove(namespace, sqlTableName(name));
  return table?.ownerHandle ?? namespace;
}

/**
 * Whether the service makes a table of these columns and privacy: one is made under a name of its
 * own and deleted at once. Asked before a table is deleted for a new one, so that what the service
 * refuses (a column name, a private table on its plan) leaves the old table as it was. Answers the
 * full name of the table made when it could not be deleted.
 */
export async function checkCreatable(
  client: ServiceClient,
  table: Omit<CreateTableArgs, 'tableName'>,
  signal: AbortSignal,
): Promise<{ ok: true } | { ok: false; error: ServiceError; leftOver: string | null }> {
  const tableName = `querydesk_check_${randomBytes(6).toString('hex')}`;
  const made = await client.tables.create({ ...table, tableName, description: 'Querydesk: checking a replacement' }, { signal });
  if (!made.ok) return { ok: false, error: made.error, leftOver: null };
  const removed = await client.tables.remove(table.namespace, tableName, { signal });
  return removed.ok ? { ok: true } : { ok: false, error: removed.error, leftOver: made.data.fullName };
}
