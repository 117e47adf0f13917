import { describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { osKeychain } from '../../../../main/core/secrets/os-keychain.ts';

// In a file of its own: the keychain library keeps its D-Bus connection for the process, so this
// must run in a process that never reached the working Secret Service.
const service = `querydesk-test-${process.pid}`;

describe('KeyVault without a reachable keychain', () => {
  // A real failure, not a stand-in: the Secret Service client is pointed at a bus that does not exist.
  function withDeadBus<T>(run: () => Promise<T>): Promise<T> {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/querydesk-bus';
    return run().finally(() => {
      if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    });
  }

  it.runIf(process.platform === 'linux')('says so plainly and accepts a session-only key', () =>
    withDeadBus(async () => {
      const vault = new KeyVault(osKeychain(service));
      const status = await vault.status();
      expect(status.available).toBe(false);
      expect(status.available === false && status.reason).toMatch(/^The system keychain did not answer/);

      const refused = await vault.save('acct-4', 'some-key-2468');
      expect(refused).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });

      expect(await vault.save('acct-4', 'some-key-2468', { sessionOnly: true })).toEqual({
        ok: true,
        data: { sessionOnly: true },
      });
      expect(await vault.read('acct-4')).toEqual({ ok: true, data: 'some-key-2468' });
      expect(await vault.read('acct-5')).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });

      expect(await vault.remove('acct-4')).toEqual({ ok: true, data: undefined });
      expect(vault.isSessionOnly('acct-4')).toBe(false);
      expect(await vault.remove('acct-5')).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    }),
  );
});
