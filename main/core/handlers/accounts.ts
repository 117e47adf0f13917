import { fail, ok } from '../../contract/index.ts';
import { checkConnection } from '../accounts/check-connection.ts';
import { keyProblemOf } from '../accounts/find-account.ts';
import type { AccountRegistry, ProfileFields } from '../accounts/registry.ts';
import { isFailure, noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { KeyVault } from '../secrets/key-vault.ts';

type AccountChannels = 'accounts:list' | 'accounts:add' | 'accounts:update' | 'accounts:remove' | 'accounts:setActive' | 'accounts:test';

export function accountHandlers(
  accounts: AccountRegistry,
  vault: KeyVault,
  /** Forgets what core holds of the account; answers once its own files are gone. */
  onRemoved: (accountId: string) => Promise<void>,
): Pick<Handlers, AccountChannels> {
  return {
    'accounts:list': async () =>
      ok({ accounts: accounts.list(), activeAccountId: accounts.activeAccountId(), keychain: await vault.status() }),

    'accounts:add': async ({ label, kind, baseUrl, serviceName, apiKey, sessionOnly }) => {
      const checked = await checkConnection(accounts.newConnection({ baseUrl, serviceName }, apiKey));
      if (!checked.ok) return checked;
      return accounts.add({ label, kind, baseUrl, serviceName, handle: checked.data.handle }, apiKey, { sessionOnly });
    },

    'accounts:update': async ({ accountId, apiKey, sessionOnly, ...changes }) => {
      const current = accounts.profile(accountId);
      if (isFailure(current)) return current;
      const fields: ProfileFields = { ...current, ...changes };
      const reconnects = apiKey !== undefined || fields.baseUrl !== current.baseUrl || fields.serviceName !== current.serviceName;
      if (reconnects) {
        const connection = accounts.connectionWith(accountId, fields, apiKey);
        if (connection === null)
          return fail('bad_key', "The new address is checked with the account's API key, and this account has none. Enter the key too.");
        const checked = await checkConnection(connection);
        if (!checked.ok) return checked;
        fields.handle = checked.data.handle;
      }
      return accounts.update(accountId, fields, apiKey, { sessionOnly });
    },

    'accounts:remove': async ({ accountId }) => {
      const removed = await accounts.remove(accountId);
      if (removed.ok) await onRemoved(accountId);
      return removed;
    },

    'accounts:setActive': async ({ accountId }) => accounts.setActive(accountId),

    'accounts:test': async ({ accountId }) => {
      const entry = accounts.get(accountId);
      if (entry === null) return noSuchAccount(accountId);
      const connection = accounts.connectionWith(accountId, entry.account);
      if (connection === null) {
        const problem = keyProblemOf(entry);
        return fail(problem.code, problem.message);
      }
      return checkConnection(connection);
    },
  };
}
