import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { Workspaces } from '../workspace/workspaces.ts';
import { paramsetHandlers, type ParamsetChannel } from './paramsets.ts';
import { versionHandlers } from './versions.ts';

type WorkspaceChannel =
  'workspace:open' | 'workspace:refresh' | 'workspace:network' | 'workspace:query' | 'workspace:saveDraft' | 'workspace:discardDraft';

/** With the channels of what else the workspace's folder keeps: the queries' versions and parameter sets. */
export function workspaceHandlers(
  accounts: AccountRegistry,
  workspaces: Workspaces,
): Pick<Handlers, WorkspaceChannel | 'versions:list' | ParamsetChannel> {
  const known = (accountId: string) => accounts.get(accountId) !== null;

  return {
    ...versionHandlers(accounts, workspaces),
    ...paramsetHandlers(accounts, workspaces),
    'workspace:open': async ({ accountId }) => (known(accountId) ? ok(workspaces.open(accountId)) : noSuchAccount(accountId)),

    'workspace:refresh': async ({ accountId }) => (known(accountId) ? ok(await workspaces.refresh(accountId)) : noSuchAccount(accountId)),

    'workspace:network': async ({ online }) => {
      if (online) workspaces.networkBack();
      return ok({});
    },

    'workspace:query': async ({ accountId, queryId }) =>
      known(accountId) ? ok(workspaces.store(accountId).query(queryId)) : noSuchAccount(accountId),

    'workspace:saveDraft': async ({ accountId, draft }) => {
      if (!known(accountId)) return noSuchAccount(accountId);
      const updatedAt = workspaces.saveDraft(accountId, draft);
      // A new query to create as soon as the service answers: it may answer already.
      if (draft.createWhenOnline && 'newId' in draft.key) void workspaces.refresh(accountId);
      return ok({ updatedAt });
    },

    'workspace:discardDraft': async ({ accountId, key }) => {
      if (!known(accountId)) return noSuchAccount(accountId);
      workspaces.discardDraft(accountId, key);
      return ok({});
    },
  };
}
