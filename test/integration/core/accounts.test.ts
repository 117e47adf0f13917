import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Account, ChannelName, ChannelRequest, ChannelResponse, Result } from '../../../main/contract/index.ts';
import type { Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { osKeychain } from '../../../main/core/secrets/os-keychain.ts';
import { accountDir } from '../../../main/core/workspace/account-dirs.ts';
import { caller, filesUnder, startHarness, type Harness } from './core-harness.ts';

// Accounts end to end: the embedded service checks the keys, the real Secret Service keeps them
// (build/with-secret-service.sh starts one for `npm test`), a JSON file keeps the profiles.

const hasSecretService = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS) || process.platform !== 'linux';
const requireKeychain = process.env.CI === 'true' || process.env.QUERYDESK_SECRET_SERVICE === '1';
const keychainService = `querydesk-accounts-test-${process.pid}`;

const ALICE_KEY = 'alice-first-key-a1b2';
const ALICE_NEW_KEY = 'alice-second-key-c3d4';
const TEAM_KEY = 'analysts-team-key-e5f6';
const FREE_KEY = 'freebie-key-g7h8';
const WRONG_KEY = 'not-a-key-of-anyone-9999';
const ALL_KEYS = [ALICE_KEY, ALICE_NEW_KEY, TEAM_KEY, FREE_KEY, WRONG_KEY];

let harness: Harness;
let core: Core;
/** Every answer any handler gave in this file, and everything logged: none may carry a key. */
const answers: unknown[] = [];
const logged: unknown[][] = [];

/** Through the dispatcher, as a host sends it: the payload is validated (trimmed, defaults filled) first. */
async function call<C extends ChannelName>(channel: C, payload: ChannelRequest<C>, on: Core = core): Promise<Result<ChannelResponse<C>>> {
  const answer = await caller(on)(channel, payload);
  answers.push(answer);
  return answer;
}

const keychain = () => osKeychain(keychainService);
const newCore = () => harness.startCore({ keyVault: new KeyVault(keychain()) });
const settingsFile = () =>
  JSON.parse(readFileSync(join(harness.coreDir, 'accounts.json'), 'utf8')) as {
    accounts: { id: string; label: string }[];
    activeAccountId: string | null;
  };

beforeAll(async () => {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args));
  }
  harness = await startHarness({
    accounts: {
      accounts: [
        { handle: 'alice', type: 'user', plan: 'plus', api_keys: [ALICE_KEY, ALICE_NEW_KEY] },
        { handle: 'analysts', type: 'team', plan: 'premium', api_keys: [TEAM_KEY], members: ['alice'] },
        { handle: 'freebie', type: 'user', plan: 'free', api_keys: [FREE_KEY] },
      ],
    },
  });
  core = await newCore();
});

afterAll(async () => {
  // The Secret Service outlives the test: leave nothing behind in it.
  if (existsSync(join(harness.coreDir, 'accounts.json'))) {
    for (const account of settingsFile().accounts) await keychain().delete(account.id);
  }
  await harness?.close();
});

describe.runIf(hasSecretService || requireKeychain)('accounts with keys in the OS keychain', () => {
  let alice: Account;

  it('refuses a wrong key with the service’s own words, and saves nothing', async () => {
    const refused = await call('accounts:add', { label: 'Alice', baseUrl: harness.baseUrl, apiKey: WRONG_KEY });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_key', details: { status: 401 } } });
    expect(refused.ok ? '' : refused.error.message).toBe('invalid API Key');
    const listed = await call('accounts:list', {});
    expect(listed.ok && listed.data.accounts.map((a) => a.id)).toEqual(['local']);
    expect(listed.ok && listed.data.keychain).toEqual({ available: true });
  });

  it('says why when the service is unreachable or the plan does not allow it', async () => {
    const unreachable = await call('accounts:add', { label: 'Nowhere', baseUrl: 'http://127.0.0.1:9', apiKey: ALICE_KEY });
    expect(unreachable).toMatchObject({ ok: false, error: { code: 'unreachable' } });
    expect(unreachable.ok ? '' : unreachable.error.message).toBe(
      'Nothing was sent to http://127.0.0.1:9: port 9 is kept for other protocols, and requests are never sent to it.',
    );
  });

  it('keeps a key whose plan may not list queries: the service knows it, and it can still run them', async () => {
    const free = await call('accounts:add', { label: 'Free', baseUrl: harness.baseUrl, apiKey: FREE_KEY });
    if (!free.ok) throw new Error(free.error.message);
    expect(free.data).toMatchObject({ label: 'Free', handle: null, keyStorage: 'keychain' });
    expect(await call('accounts:test', { accountId: free.data.id })).toMatchObject({ ok: true, data: { handle: null } });
    expect(await call('accounts:remove', { accountId: free.data.id })).toMatchObject({ ok: true });
  });

  it('saves a right key in the keychain and the profile in the settings file', async () => {
    const added = await call('accounts:add', { label: '  Alice  ', baseUrl: harness.baseUrl, apiKey: ` ${ALICE_KEY}\n` });
    if (!added.ok) throw new Error(added.error.message);
    alice = added.data;
    expect(alice).toMatchObject({
      label: 'Alice',
      kind: 'user',
      serviceName: 'DUNE',
      keyHint: '••••a1b2',
      keyStorage: 'keychain',
      isLocal: false,
    });
    expect(await keychain().get(alice.id)).toBe(ALICE_KEY);
    expect(settingsFile().accounts).toEqual([
      { id: alice.id, label: 'Alice', kind: 'user', handle: null, baseUrl: harness.baseUrl, serviceName: 'DUNE' },
    ]);

    // The key works: the account's refresh reaches the service, which lists its (so far no) queries.
    expect(await call('workspace:refresh', { accountId: alice.id })).toMatchObject({ ok: true, data: { status: 'online' } });
    expect(await call('workspace:open', { accountId: alice.id })).toMatchObject({ ok: true, data: { queries: [] } });
    expect(await call('accounts:test', { accountId: alice.id })).toMatchObject({ ok: true, data: { handle: null } });
  });

  it('adds a team account and learns its handle from its queries', async () => {
    const team = await call('accounts:add', { label: 'Team', kind: 'team', baseUrl: harness.baseUrl, apiKey: TEAM_KEY });
    if (!team.ok) throw new Error(team.error.message);
    const created = await call('queries:create', { accountId: team.data.id, name: 'Team query', sql: 'SELECT 1' });
    expect(created).toMatchObject({ ok: true, data: { owner: 'analysts' } });
    expect(await call('accounts:test', { accountId: team.data.id })).toMatchObject({ ok: true, data: { handle: 'analysts' } });
    expect(await call('accounts:update', { accountId: team.data.id, apiKey: TEAM_KEY })).toMatchObject({
      ok: true,
      data: { handle: 'analysts', kind: 'team' },
    });
  });

  it('renames without touching the key', async () => {
    const renamed = await call('accounts:update', { accountId: alice.id, label: 'Alice (work)' });
    expect(renamed).toMatchObject({ ok: true, data: { id: alice.id, label: 'Alice (work)', keyHint: '••••a1b2' } });
    expect(settingsFile().accounts.find((a) => a.id === alice.id)?.label).toBe('Alice (work)');
    expect(await keychain().get(alice.id)).toBe(ALICE_KEY);
  });

  it('changes the key only to one the service accepts', async () => {
    const refused = await call('accounts:update', { accountId: alice.id, apiKey: WRONG_KEY });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_key' } });
    expect(await keychain().get(alice.id)).toBe(ALICE_KEY);

    const unreachable = await call('accounts:update', { accountId: alice.id, baseUrl: 'http://127.0.0.1:9' });
    expect(unreachable).toMatchObject({ ok: false, error: { code: 'unreachable' } });
    expect(settingsFile().accounts.find((a) => a.id === alice.id)).toMatchObject({ baseUrl: harness.baseUrl });

    const changed = await call('accounts:update', { accountId: alice.id, apiKey: ALICE_NEW_KEY });
    expect(changed).toMatchObject({ ok: true, data: { keyHint: '••••c3d4', keyStorage: 'keychain' } });
    expect(await keychain().get(alice.id)).toBe(ALICE_NEW_KEY);
    expect(await call('tables:list', { accountId: alice.id })).toMatchObject({ ok: true });
  });

  it('refuses to change or remove Local', async () => {
    expect(await call('accounts:update', { accountId: 'local', label: 'Mine' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('accounts:remove', { accountId: 'local' })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await call('accounts:setActive', { accountId: 'nobody' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('remembers the accounts and the active one across a restart, keys read back from the keychain', async () => {
    expect(await call('accounts:setActive', { accountId: alice.id })).toEqual({ ok: true, data: { activeAccountId: alice.id } });
    await core.dispose();
    core = await newCore();
    const listed = await call('accounts:list', {});
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.data.activeAccountId).toBe(alice.id);
    expect(listed.data.accounts.find((a) => a.id === alice.id)).toMatchObject({
      label: 'Alice (work)',
      keyHint: '••••c3d4',
      keyStorage: 'keychain',
    });
    expect(await call('tables:list', { accountId: alice.id })).toMatchObject({ ok: true });
  });

  it('says so when the keychain lost an account’s key, and takes a new one', async () => {
    await keychain().delete(alice.id);
    const restarted = await newCore();
    const listed = await call('accounts:list', {}, restarted);
    expect(listed.ok && listed.data.accounts.find((a) => a.id === alice.id)).toMatchObject({ keyStorage: 'missing', keyHint: '' });
    const refused = await call('tables:list', { accountId: alice.id }, restarted);
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_key' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/not in the system keychain/);
    expect(await call('accounts:update', { accountId: alice.id, apiKey: ALICE_NEW_KEY }, restarted)).toMatchObject({
      ok: true,
      data: { keyStorage: 'keychain' },
    });
    expect(await keychain().get(alice.id)).toBe(ALICE_NEW_KEY);
    await restarted.dispose();
  });

  it('removes an account with its keychain entry, and falls back to Local', async () => {
    const workspace = accountDir(join(harness.coreDir, 'workspaces'), alice.id);
    expect(existsSync(workspace)).toBe(true);
    const removed = await call('accounts:remove', { accountId: alice.id });
    expect(removed).toEqual({ ok: true, data: { activeAccountId: 'local' } });
    expect(existsSync(workspace)).toBe(false);
    expect(await keychain().get(alice.id)).toBeNull();
    expect(settingsFile().accounts.map((a) => a.id)).not.toContain(alice.id);
    expect(settingsFile().activeAccountId).toBeNull();
    expect(await call('tables:list', { accountId: alice.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('never lets a key out: not in an answer, a log line, or a file of core', async () => {
    expect(answers.length).toBeGreaterThan(20);
    const texts = [...[...answers, ...logged].map((item) => JSON.stringify(item)), ...filesUnder(harness.coreDir)];
    for (const key of ALL_KEYS) {
      expect(texts.filter((text) => text.includes(key))).toEqual([]);
    }
  });
});
