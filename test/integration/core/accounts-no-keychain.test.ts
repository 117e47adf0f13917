import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelName, ChannelRequest } from '../../../main/contract/index.ts';
import type { Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { osKeychain } from '../../../main/core/secrets/os-keychain.ts';
import { caller, filesUnder, startHarness, type Harness } from './core-harness.ts';

// No keychain reachable: a file of its own, because the keychain library keeps its D-Bus connection
// for the process, so this must run in a process that never reached a working Secret Service. The
// failure is real: the Secret Service client is pointed at a bus that does not exist.

const KEY = 'session-only-key-z9y8';
let harness: Harness;
let core: Core;
let savedBus: string | undefined;

const call = <C extends ChannelName>(channel: C, payload: ChannelRequest<C>, on: Core = core) => caller(on)(channel, payload);
const newCore = () => harness.startCore({ keyVault: new KeyVault(osKeychain(`querydesk-no-keychain-${process.pid}`)) });

beforeAll(async () => {
  savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/querydesk-bus';
  harness = await startHarness({ accounts: { accounts: [{ handle: 'sam', type: 'user', plan: 'plus', api_keys: [KEY] }] } });
  core = await newCore();
});

afterAll(async () => {
  await harness?.close();
  if (savedBus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
});

describe.runIf(process.platform === 'linux')('accounts without a reachable keychain', () => {
  let accountId = '';

  it('says so plainly in accounts:list', async () => {
    const listed = await call('accounts:list', {});
    expect(listed).toMatchObject({ ok: true, data: { keychain: { available: false } } });
    expect(listed.ok && listed.data.keychain.reason).toMatch(/^The system keychain did not answer/);
  });

  it('refuses to save a checked key with keychain_unavailable, then keeps it for the session when asked', async () => {
    const refused = await call('accounts:add', { label: 'Sam', baseUrl: harness.baseUrl, apiKey: KEY });
    expect(refused).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/^The API key was not saved, since the system keychain did not answer/);
    const listed = await call('accounts:list', {});
    expect(listed.ok && listed.data.accounts.map((a) => a.id)).toEqual(['local']);

    const added = await call('accounts:add', { label: 'Sam', baseUrl: harness.baseUrl, apiKey: KEY, sessionOnly: true });
    if (!added.ok) throw new Error(added.error.message);
    accountId = added.data.id;
    expect(added.data).toMatchObject({ keyStorage: 'session', keyHint: '••••z9y8' });
    expect(await call('workspace:refresh', { accountId })).toMatchObject({ ok: true, data: { status: 'online' } });
    expect(await call('workspace:open', { accountId })).toMatchObject({ ok: true, data: { queries: [] } });
  });

  it('keeps the profile but not the key past a restart, and says why the account cannot be used', async () => {
    const restarted = await newCore();
    const listed = await call('accounts:list', {}, restarted);
    expect(listed.ok && listed.data.accounts.find((a) => a.id === accountId)).toMatchObject({ label: 'Sam', keyStorage: 'missing' });
    const refused = await call('tables:list', { accountId }, restarted);
    expect(refused).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(
      /^The API key of the account “Sam” could not be read, since the system keychain did not answer/,
    );
    await restarted.dispose();
  });

  it('wrote the key to no file', () => {
    expect(filesUnder(harness.coreDir).filter((text) => text.includes(KEY))).toEqual([]);
    expect(filesUnder(harness.coreDir).join('')).toContain('"label": "Sam"');
  });
});
