import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_VALUE_MAX_CHARS } from '../../../../main/contract/index.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// The window's state per account: kept on disk by main, back after a restart, gone with the account.

let harness: Harness;
const vault = new KeyVault(memoryKeychain());
const ALICE_KEY = 'alice-ui-state-key-1234';

beforeAll(async () => {
  harness = await startHarness({ accounts: { accounts: [{ handle: 'alice', type: 'user', plan: 'plus', api_keys: [ALICE_KEY] }] } });
});
afterAll(() => harness.close());

describe('ui state', () => {
  it('keeps a value per account and key across a restart, and removes it on null', async () => {
    const first = caller(await harness.startCore({ keyVault: vault }));
    const view = { filters: "chain = 'ethereum'", sort: [{ column: 'amount', desc: true }], hidden: ['tx_hash'] };
    expect(await first('ui:set', { accountId: 'local', key: 'view:7', value: view })).toEqual({ ok: true, data: {} });
    expect(await first('ui:set', { accountId: 'local', key: 'layout', value: { sidebarWidth: 310 } })).toMatchObject({ ok: true });
    expect(await first('ui:get', { accountId: 'local', key: 'view:8' })).toEqual({ ok: true, data: { value: null } });

    const second = caller(await harness.startCore({ keyVault: vault }));
    expect(await second('ui:get', { accountId: 'local', key: 'view:7' })).toEqual({ ok: true, data: { value: view } });
    expect(await second('ui:set', { accountId: 'local', key: 'view:7', value: null })).toMatchObject({ ok: true });
    expect(await second('ui:get', { accountId: 'local', key: 'view:7' })).toEqual({ ok: true, data: { value: null } });
    expect(await second('ui:get', { accountId: 'local', key: 'layout' })).toEqual({ ok: true, data: { value: { sidebarWidth: 310 } } });
  });

  it('refuses a bad key, an oversized value and an unknown account, saying which', async () => {
    const call = caller(await harness.startCore({ keyVault: vault }));
    const badKey = await call('ui:set', { accountId: 'local', key: '../etc/passwd', value: 1 });
    expect(badKey).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    if (!badKey.ok) expect(badKey.error.message).toContain('key');
    const big = await call('ui:set', { accountId: 'local', key: 'tabs', value: 'x'.repeat(UI_VALUE_MAX_CHARS + 1) });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    if (!big.ok) expect(big.error.message).toContain('value');
    expect(await call('ui:get', { accountId: 'nobody', key: 'tabs' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it("removes an account's state with the account, and no other account's", async () => {
    const call = caller(await harness.startCore({ keyVault: vault }));
    const added = await call('accounts:add', { label: 'Alice', baseUrl: harness.baseUrl, apiKey: ALICE_KEY });
    if (!added.ok) throw new Error(added.error.message);
    const alice = added.data.id;
    await call('ui:set', { accountId: alice, key: 'tabs', value: [1, 2] });
    await call('ui:set', { accountId: 'local', key: 'tabs', value: [3] });
    const dirs = () => readdirSync(join(harness.coreDir, 'workspaces'));
    expect(dirs()).toHaveLength(2);
    expect(await call('accounts:remove', { accountId: alice })).toMatchObject({ ok: true });
    await expect.poll(dirs).toHaveLength(1);
    expect(await call('ui:get', { accountId: 'local', key: 'tabs' })).toEqual({ ok: true, data: { value: [3] } });
    expect(existsSync(join(harness.coreDir, 'workspaces', dirs()[0]!, 'ui.json'))).toBe(true);
  });
});
