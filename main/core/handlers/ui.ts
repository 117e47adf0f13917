import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { UiState } from '../workspace/ui-state.ts';

export function uiHandlers(accounts: AccountRegistry, ui: UiState): Pick<Handlers, 'ui:get' | 'ui:set'> {
  return {
    'ui:get': async ({ accountId, key }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      return ok({ value: ui.get(accountId, key) });
    },
    'ui:set': async ({ accountId, key, value }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      ui.set(accountId, key, value);
      return ok({});
    },
  };
}
