import type { TableSummary } from '../../contract/index.ts';
import type { ClientResult, ServiceClient, TableListItem } from '../service-client/index.ts';
import type { KnownRows } from './known-rows.ts';
import { listAllTables } from './table-lookup.ts';
import { userTableName } from './table-names.ts';

/** The account's tables as the contract shows them, with the row counts this app knows. */
export async function readTableSummaries(
  client: ServiceClient,
  knownRows: KnownRows,
  accountId: string,
): Promise<ClientResult<TableSummary[]>> {
  const listed = await listAllTables(client);
  if (!listed.ok) return listed;
  return { ok: true, data: listed.data.map((item) => summaryOf(item, knownRows.rowsOf(accountId, item.fullName, item.updatedAt))) };
}

function summaryOf(item: TableListItem, rows: number | null): TableSummary {
  return {
    name: userTableName(item.fullName),
    fullName: item.fullName,
    isPrivate: item.isPrivate,
    sizeBytes: item.sizeBytes,
    rows,
    columns: item.columns,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
