import { ok, type Result } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { ParameterSets } from '../workspace/parameter-sets.ts';
import { setValuesRefusal } from '../workspace/set-values.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

export type ParamsetChannel = 'paramsets:list' | 'paramsets:save' | 'paramsets:rename' | 'paramsets:delete';

/** Parameter sets live on this computer only, so they answer offline too. */
export function paramsetHandlers(accounts: AccountRegistry, workspaces: Workspaces): Pick<Handlers, ParamsetChannel> {
  const withSets = <T>(accountId: string, act: (sets: ParameterSets) => Result<T>): Promise<Result<T>> =>
    Promise.resolve(accounts.get(accountId) === null ? noSuchAccount(accountId) : act(workspaces.store(accountId).parameterSets()));

  return {
    'paramsets:list': ({ accountId, queryId }) => withSets(accountId, (sets) => ok(sets.list(queryId))),

    'paramsets:save': ({ accountId, queryId, name, values }) =>
      withSets(accountId, (sets) => {
        // checked by the query as saved, here if an edit waits to be sent; one never read here has
        // no definitions to check by, and its values are kept as given
        const kept = workspaces.store(accountId).query(queryId)?.query;
        const waiting = workspaces.pendingOf(accountId, queryId)?.edit;
        const query = kept && { ...kept, sql: waiting?.sql ?? kept.sql, parameters: waiting?.parameters ?? kept.parameters };
        return (query && setValuesRefusal(query, values)) ?? ok(sets.save(queryId, name, values));
      }),

    'paramsets:rename': ({ accountId, queryId, name, newName }) => withSets(accountId, (sets) => sets.rename(queryId, name, newName)),

    'paramsets:delete': ({ accountId, queryId, name }) => withSets(accountId, (sets) => sets.delete(queryId, name)),
  };
}
