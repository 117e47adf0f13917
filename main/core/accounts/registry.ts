import type { Account } from '../../contract/index.ts';
import { createServiceClient, type ServiceClient } from '../service-client/index.ts';
import { keyHint } from './key-hint.ts';

// The accounts core can talk to, each with its key held in memory only and a client built
// from it. Keys come from the host (Local) and, later, from the OS keychain (user accounts);
// what leaves this module is the Account profile with its masked hint, never the key.

export const LOCAL_ACCOUNT_ID = 'local';

export interface AccountEntry {
  account: Account;
  client: ServiceClient;
}

export interface AccountRegistry {
  list(): Account[];
  get(accountId: string): AccountEntry | null;
  activeAccountId(): string | null;
}

export function createAccountRegistry(localService: { baseUrl: string; apiKey: string | null }): AccountRegistry {
  const serviceName = 'DUNE';
  const local: AccountEntry = {
    account: {
      id: LOCAL_ACCOUNT_ID,
      label: 'Local',
      kind: 'user',
      handle: null,
      baseUrl: localService.baseUrl,
      serviceName,
      keyHint: keyHint(localService.apiKey),
      isLocal: true,
    },
    client: createServiceClient({ baseUrl: localService.baseUrl, serviceName, apiKey: localService.apiKey ?? '' }),
  };
  const entries = new Map<string, AccountEntry>([[LOCAL_ACCOUNT_ID, local]]);

  return {
    list: () => [...entries.values()].map((entry) => ({ ...entry.account })),
    get: (accountId) => entries.get(accountId) ?? null,
    activeAccountId: () => LOCAL_ACCOUNT_ID,
  };
}
