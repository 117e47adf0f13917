import { createRequire } from 'node:module';

// required, not imported (eslint.config.ts says why)
const { AsyncEntry } = createRequire(import.meta.url)('@napi-rs/keyring') as typeof import('@napi-rs/keyring');

/** The app's entries in the OS keychain are under this service name. */
export const KEYCHAIN_SERVICE = 'Querydesk';

/** The few keychain operations the app needs, keytar-shaped: one secret per (service, account). */
export interface KeychainBackend {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/**
 * The OS keychain through @napi-rs/keyring: Keychain on macOS, Credential Manager on Windows, and on
 * Linux the Secret Service, pinned explicitly so a missing one is an error rather than a silent
 * fall back to the kernel keyring (which forgets everything at reboot).
 */
export function osKeychain(service: string): KeychainBackend {
  const entry = (account: string) => new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  return {
    get: async (account) => (await entry(account).getPassword()) ?? null,
    // async so that a constructor throwing (no keychain at all) becomes a rejection like any other.
    set: async (account, secret) => entry(account).setPassword(secret),
    delete: async (account) => entry(account).deletePassword(),
  };
}
