import type { KeychainBackend } from '../../../main/core/secrets/os-keychain.ts';

/** A keychain in memory, for tests about something else than the keychain. */
export function memoryKeychain(): KeychainBackend {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
  };
}
