import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

/** A query's versions, from this computer only: the service keeps no earlier versions to ask for. */
export function versionHandlers(accounts: AccountRegistry, workspaces: Workspaces): Pick<Handlers, 'versions:list'> {
  return {
    'versions:list': async ({ accountId, queryId }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      const store = workspaces.store(accountId);
      const listed = store.versions.list(queryId);
      // the query as last read, kept before versions were, is one of them, seen when it was read
      const kept = store.query(queryId);
      if (!kept || listed.versions.some((v) => v.version === kept.query.version)) return ok(listed);
      store.versions.record(kept.query, kept.fetchedAt);
      return ok(store.versions.list(queryId));
    },
  };
}
