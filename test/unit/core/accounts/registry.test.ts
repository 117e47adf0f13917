import { describe, expect, it } from 'vitest';
import { defaultAccountSettings, type AccountSettings } from '../../../../main/core/accounts/profiles.ts';
import { createAccountRegistry } from '../../../../main/core/accounts/registry.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import type { SettingsStore } from '../../../../main/core/settings/settings-store.ts';
import { memoryKeychain } from '../memory-keychain.ts';

// The registry with its stores in memory: what happens when one of them fails half-way.

function memorySettings(initial: AccountSettings = defaultAccountSettings()) {
  let value = structuredClone(initial);
  let failWrites = false;
  const store: SettingsStore<AccountSettings> = {
    read: () => structuredClone(value),
    write: (next) => {
      if (failWrites) throw new Error('disk full');
      value = structuredClone(next);
    },
  };
  return { store, failNextWrites: () => (failWrites = true), current: () => value };
}

const fields = { label: 'Work', kind: 'user' as const, handle: null, baseUrl: 'https://api.dune.com', serviceName: 'DUNE' };
const localService = { baseUrl: 'http://127.0.0.1:1', apiKey: 'local-key-0000-1111' };

describe('the account registry', () => {
  it('takes the key back out of the keychain when the profile cannot be written', async () => {
    const keychain = memoryKeychain();
    const stored: string[] = [];
    const watched = {
      ...keychain,
      set: async (account: string, secret: string) => {
        stored.push(account);
        await keychain.set(account, secret);
      },
    };
    const settings = memorySettings();
    const accounts = await createAccountRegistry({ localService, settings: settings.store, vault: new KeyVault(watched) });
    settings.failNextWrites();
    await expect(accounts.add(fields, 'work-key-2222-3333', {})).rejects.toThrow('disk full');
    expect(accounts.list().map((a) => a.id)).toEqual(['local']);
    expect(settings.current().accounts).toEqual([]);
    expect(stored).toHaveLength(1);
    expect(await keychain.get(stored[0]!)).toBeNull();
  });

  it('falls back to Local for an active account that is gone, and never lists a stored "local" profile', async () => {
    const settings = memorySettings({ accounts: [{ ...fields, id: 'local', label: 'Impostor' }], activeAccountId: 'gone' });
    const accounts = await createAccountRegistry({ localService, settings: settings.store, vault: new KeyVault(memoryKeychain()) });
    expect(accounts.activeAccountId()).toBe('local');
    expect(accounts.list()).toEqual([expect.objectContaining({ id: 'local', label: 'Local', keyStorage: 'host', keyHint: '••••1111' })]);
  });

  it('keeps a session-only key in memory only, and says so', async () => {
    const keychain = memoryKeychain();
    const accounts = await createAccountRegistry({ localService, settings: memorySettings().store, vault: new KeyVault(keychain) });
    const added = await accounts.add(fields, 'session-key-4444-5555', { sessionOnly: true });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.data).toMatchObject({ keyStorage: 'session', keyHint: '••••5555' });
    expect(await keychain.get(added.data.id)).toBeNull();
    expect(accounts.get(added.data.id)?.client).not.toBeNull();
  });
});
