import { ok, type QueryDetail, type Result } from '../../contract/index.ts';
import { findAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { isFailure, serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import { toQueryDetail } from '../queries/query-detail.ts';
import type { ClientResult, ServiceClient } from '../service-client/index.ts';
import type { QueryFlagAction } from '../service-client/queries.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

/** Every answer of the service is kept in the account's local workspace, so it can be shown offline. */
export function queryHandlers(accounts: AccountRegistry, workspaces: Workspaces): Pick<Handlers, 'queries:list' | 'queries:get' | 'queries:create' | 'queries:update' | 'queries:setFlags'> {
  // Create and update answer only an id; the query as saved is read back, so the UI shows the
  // service's version of it (its new version number, the fields it normalised).
  async function readBack(accountId: string, client: ServiceClient, saved: ClientResult<number>, isNew: boolean): Promise<Result<QueryDetail>> {
    const read = saved.ok ? await client.queries.get(saved.value) : saved;
    if (!read.ok) return serviceFailure(read.error);
    const query = toQueryDetail(read.value);
    workspaces.recordQuery(accountId, query, isNew);
    return ok(query);
  }

  return {
    'queries:list': async ({ accountId, limit, offset }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const read = await entry.client.queries.list({ limit, offset });
      if (!read.ok) return serviceFailure(read.error);
      // Only a whole list can tell which queries are gone.
      if ((offset ?? 0) === 0 && read.value.queries.length >= read.value.total) workspaces.recordList(accountId, read.value.queries);
      return ok(read.value);
    },

    'queries:get': async ({ accountId, queryId }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readBack(accountId, entry.client, { ok: true, value: queryId }, false);
    },

    'queries:create': async ({ accountId, sql, ...fields }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readBack(accountId, entry.client, await entry.client.queries.create({ ...fields, querySql: sql }), true);
    },

    'queries:update': async ({ accountId, queryId, sql, ...fields }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      return readBack(accountId, entry.client, await entry.client.queries.update(queryId, { ...fields, querySql: sql }), false);
    },

    'queries:setFlags': async ({ accountId, queryId, archived, isPrivate }) => {
      const entry = findAccount(accounts, accountId);
      if (isFailure(entry)) return entry;
      const actions: QueryFlagAction[] = [];
      if (isPrivate !== undefined) actions.push(isPrivate ? 'private' : 'unprivate');
      if (archived !== undefined) actions.push(archived ? 'archive' : 'unarchive');
      let sent: ClientResult<number> = { ok: true, value: queryId };
      for (const action of actions) {
        sent = await entry.client.queries.setFlag(queryId, action);
        if (!sent.ok) break;
      }
      return readBack(accountId, entry.client, sent, false);
    },
  };
}
