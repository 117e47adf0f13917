import { describe, expect, it } from 'vitest';
import { findAccount, keyProblemOf } from '../../../main/core/accounts/find-account.ts';
import { defaultAccountSettings, type AccountSettings } from '../../../main/core/accounts/profiles.ts';
import { createAccountRegistry } from '../../../main/core/accounts/registry.ts';
import { isFailure } from '../../../main/core/failures.ts';
import { accountHandlers } from '../../../main/core/handlers/accounts.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import type { KeychainBackend } from '../../../main/core/secrets/os-keychain.ts';
import type { SettingsStore } from '../../../main/core/settings/settings-store.ts';
import { memoryKeychain } from '../../unit/core/memory-keychain.ts';
import { expectSentences, expectWellSaid } from './read-words.ts';

// What the app says of an account it cannot use: its key missing, or the keychain not answering.
// The keychain here fails as a locked Secret Service does; the real one's failure is in
// test/integration/core/accounts-no-keychain.test.ts.

const profile = { id: 'sam-1', label: 'Sam', kind: 'user' as const, handle: null, baseUrl: 'https://api.dune.com', serviceName: 'DUNE' };
const localService = { baseUrl: 'http://127.0.0.1:1', apiKey: 'local-key-0000-1111' };

function settingsWith(accounts: AccountSettings['accounts']): SettingsStore<AccountSettings> {
  let value: AccountSettings = { ...defaultAccountSettings(), accounts };
  return { read: () => structuredClone(value), write: (next) => void (value = structuredClone(next)) };
}

const locked: KeychainBackend = {
  get: async () => {
    throw new Error('Cannot create an item in a locked collection.');
  },
  set: async () => {
    throw new Error('Cannot create an item in a locked collection.');
  },
  delete: async () => {
    throw new Error('Cannot create an item in a locked collection.');
  },
};

describe('what the app says of an account it cannot use', () => {
  it('a key not in the keychain: which account, and what to do', async () => {
    const accounts = await createAccountRegistry({
      localService,
      settings: settingsWith([profile]),
      vault: new KeyVault(memoryKeychain()),
    });
    const found = findAccount(accounts, profile.id);
    expect(isFailure(found) && found.error).toEqual({
      code: 'bad_key',
      message: 'The API key of the account “Sam” is not in the system keychain. Enter it again in the account’s settings.',
    });
    if (isFailure(found)) expectWellSaid(found.error);
    const tested = await accountHandlers(accounts, new KeyVault(memoryKeychain()), async () => undefined)['accounts:test']({
      accountId: profile.id,
    });
    expect(tested).toEqual(found);
    const moved = await accountHandlers(accounts, new KeyVault(memoryKeychain()), async () => undefined)['accounts:update']({
      accountId: profile.id,
      baseUrl: 'https://other.example',
    });
    expect(moved.ok).toBe(false);
    if (!moved.ok) expectWellSaid(moved.error);
  });

  it('an account with no key at all, as the sync status says it', () => {
    const problem = keyProblemOf({
      account: { ...profile, keyHint: '', keyStorage: 'missing', isLocal: false },
      client: null,
      keyProblem: null,
    });
    expect(problem.message).toBe('The account “Sam” has no API key. Enter one in its settings.');
    expectWellSaid({ code: problem.code, message: problem.message });
  });

  it('a keychain that does not answer: what was not done, with its words kept', async () => {
    const vault = new KeyVault(locked);
    const status = await vault.status();
    expect(status).toEqual({
      available: false,
      reason: 'The system keychain did not answer (Cannot create an item in a locked collection).',
    });
    if (!status.available) expectSentences(status.reason);
    const saved = await vault.save('sam-1', 'key');
    const removed = await vault.remove('sam-1');
    const accounts = await createAccountRegistry({ localService, settings: settingsWith([profile]), vault });
    const found = findAccount(accounts, profile.id);
    for (const failed of [saved, removed, isFailure(found) ? found : { ok: true as const }]) {
      expect(failed.ok).toBe(false);
      if (!failed.ok) expectWellSaid(failed.error);
    }
    expect(isFailure(found) && found.error.message).toBe(
      'The API key of the account “Sam” could not be read, since the system keychain did not answer (Cannot create an item in a locked collection).',
    );
  });
});
