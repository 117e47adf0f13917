import { ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { Handlers } from '../ipc/dispatcher.ts';

export function appHandlers(options: {
  host: 'electron' | 'web';
  version: string;
  accounts: AccountRegistry;
}): Pick<Handlers, 'app:info' | 'accounts:list'> {
  const { host, version, accounts } = options;
  return {
    'app:info': async () => ok({ version, host }),
    'accounts:list': async () => ok({ accounts: accounts.list(), activeAccountId: accounts.activeAccountId() }),
  };
}
