import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

/** A query's versions, from this computer only: the service keeps no earlier versions to ask for. */
export function versionHandlers(accounts: AccountRegistry, workspaces: Workspaces): Pick<Handlers, 'versions:list'> {
  return {
    'versions:list': async ({ accountId, queryId }) =>
      accounts.get(accountId) === null ? noSuchAccount(accountId) : ok(workspaces.store(accountId).versions.list(queryId)),
  };
}
