import { describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { osKeychain } from '../../../../main/core/secrets/os-keychain.ts';

// Against the real OS keychain: a Secret Service under D-Bus here (build/with-secret-service.sh
// starts one for `npm test`). Without one these tests cannot mean anything, so outside CI they are
// skipped with the reason, and under CI they fail.
const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS) || process.platform !== 'linux';
const requireKeychain = process.env.CI === 'true' || process.env.QUERYDESK_SECRET_SERVICE === '1';
const service = `querydesk-test-${process.pid}`;

describe.runIf(hasSecretService || requireKeychain)('KeyVault with the OS keychain', () => {
  it('stores a key, reads it back, replaces it and removes it', async () => {
    const vault = new KeyVault(osKeychain(service));
    expect(await vault.status()).toEqual({ available: true });
    expect(await vault.save('acct-1', 'first-key-1234')).toEqual({ ok: true, data: { sessionOnly: false } });
    expect(await vault.save('acct-2', 'other-key-9999')).toMatchObject({ ok: true });

    expect(await vault.read('acct-1')).toEqual({ ok: true, data: 'first-key-1234' });
    // A second vault over the same keychain sees it: the key is in the keychain, not in memory.
    expect(await new KeyVault(osKeychain(service)).read('acct-1')).toEqual({ ok: true, data: 'first-key-1234' });

    await vault.save('acct-1', 'second-key-5678');
    expect(await new KeyVault(osKeychain(service)).read('acct-1')).toEqual({ ok: true, data: 'second-key-5678' });

    expect(await vault.remove('acct-1')).toEqual({ ok: true, data: undefined });
    expect(await new KeyVault(osKeychain(service)).read('acct-1')).toEqual({ ok: true, data: null });
    expect(await vault.read('acct-2')).toEqual({ ok: true, data: 'other-key-9999' });
    await vault.remove('acct-2');
  });

  it('keeps a session-only key out of the keychain, replacing a stored one', async () => {
    const vault = new KeyVault(osKeychain(service));
    await vault.save('acct-3', 'stored-key-0000');
    await vault.save('acct-3', 'session-key-4321', { sessionOnly: true });
    expect(vault.isSessionOnly('acct-3')).toBe(true);
    expect(await vault.read('acct-3')).toEqual({ ok: true, data: 'session-key-4321' });
    expect(await new KeyVault(osKeychain(service)).read('acct-3')).toEqual({ ok: true, data: null });
    await vault.remove('acct-3');
    expect(await vault.read('acct-3')).toEqual({ ok: true, data: null });
  });
});
