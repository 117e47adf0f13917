import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollDelayWithin } from '../../../../main/core/executions/poll-pace.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// settings:get / settings:set through the dispatcher, on a core that keeps them in its JSON file
// (as the browser host does), across a restart.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => harness.close());

const startCore = () => harness.startCore({ keyVault: new KeyVault(memoryKeychain()) });

describe('the app settings', () => {
  it('starts from the defaults and says where things are', async () => {
    const call = caller(await startCore());
    const got = await call('settings:get', {});
    expect(got).toMatchObject({
      ok: true,
      data: {
        settings: {
          theme: 'system',
          proxy: '',
          notifyOnFinish: true,
          poll: { minMs: 1000, maxMs: 3000 },
          thousandsSeparators: false,
          exportFolder: null,
        },
        about: {
          host: 'web',
          version: '0.0.0',
          cacheDir: join(harness.coreDir, 'cache'),
          settingsFile: join(harness.coreDir, 'settings.json'),
        },
      },
    });
  });

  it('refuses what is not a setting, saying which field and why, and keeps the stored ones', async () => {
    const call = caller(await startCore());
    const badProxy = await call('settings:set', { proxy: 'socks://corp:1080/path' });
    expect(badProxy).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    if (!badProxy.ok) expect(badProxy.error.message).toMatch(/proxy.*must be empty \(to use the system settings\) or an address/);
    const badPoll = await call('settings:set', { poll: { minMs: 5000, maxMs: 2000 } });
    if (!badPoll.ok)
      expect(badPoll.error.message).toBe('The “at most every” time of checks must not be longer than the “at least every” time.');
    expect(badPoll.ok).toBe(false);
    const relative = await call('settings:set', { exportFolder: 'exports' });
    if (!relative.ok) expect(relative.error.message).toContain('“exportFolder” must be an absolute path.');
    expect(relative.ok).toBe(false);
    expect((await call('settings:set', { theme: 'sepia' as never })).ok).toBe(false);
    expect((await call('settings:get', {})).ok && (await call('settings:get', {}))).toMatchObject({
      data: { settings: { proxy: '', theme: 'system' } },
    });
  });

  it('changes only the fields given, keeps them on disk, and has them after a restart', async () => {
    const call = caller(await startCore());
    const set = await call('settings:set', {
      theme: 'dark',
      proxy: ' http://proxy.corp.example:3128 ',
      poll: { minMs: 1000, maxMs: 60_000 },
    });
    expect(set).toMatchObject({
      ok: true,
      data: {
        settings: { theme: 'dark', proxy: 'http://proxy.corp.example:3128', notifyOnFinish: true, poll: { minMs: 1000, maxMs: 60_000 } },
      },
    });
    const onDisk = JSON.parse(readFileSync(join(harness.coreDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ theme: 'dark', proxy: 'http://proxy.corp.example:3128' });

    const again = caller(await startCore());
    expect(await again('settings:get', {})).toMatchObject({
      ok: true,
      data: { settings: { theme: 'dark', proxy: 'http://proxy.corp.example:3128' } },
    });
  });

  it('refuses checks more often than every second, and reads bounds kept when 250 ms was allowed raised to it', async () => {
    const refused = await caller(await startCore())('settings:set', { poll: { minMs: 500, maxMs: 3000 } });
    expect(refused.ok).toBe(false);
    writeFileSync(join(harness.coreDir, 'settings.json'), JSON.stringify({ theme: 'dark', poll: { minMs: 250, maxMs: 2000 } }));
    const call = caller(await startCore());
    expect(await call('settings:get', {})).toMatchObject({
      ok: true,
      data: { settings: { theme: 'dark', poll: { minMs: 1000, maxMs: 2000 } } },
    });
  });

  it('reads a file from before a setting existed, with that setting at its default', async () => {
    writeFileSync(join(harness.coreDir, 'settings.json'), JSON.stringify({ theme: 'light' }));
    const call = caller(await startCore());
    expect(await call('settings:get', {})).toMatchObject({
      ok: true,
      data: { settings: { theme: 'light', notifyOnFinish: true, proxy: '' } },
    });
  });
});

describe('block explorers and links', () => {
  it('starts with an explorer for each main chain, and keeps a changed list across a restart', async () => {
    const call = caller(await startCore());
    const got = await call('settings:get', {});
    expect(got.ok && got.data.settings.explorers.ethereum).toEqual({
      address: 'https://etherscan.io/address/{value}',
      transaction: 'https://etherscan.io/tx/{value}',
      block: 'https://etherscan.io/block/{value}',
    });
    const mine = { mychain: { address: 'https://scan.example/a/{value}', transaction: '', block: '' } };
    const bad = await call('settings:set', { explorers: { mychain: { ...mine.mychain, transaction: 'file:///{value}' } } });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.error.message).toContain('“explorers.mychain.transaction” is not valid: an explorer link must be an https address');
    expect((await call('settings:set', { explorers: mine })).ok).toBe(true);
    const again = caller(await startCore());
    expect(await again('settings:get', {})).toMatchObject({ ok: true, data: { settings: { explorers: mine } } });
  });

  it('hands an https link to the host, and tells a page without one to open it itself', async () => {
    const opened: string[] = [];
    const desktop = caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()), openUrl: (url) => opened.push(url) }));
    expect(await desktop('app:openUrl', { url: 'https://etherscan.io/tx/0xab' })).toEqual({ ok: true, data: { opened: true } });
    const refused = await desktop('app:openUrl', { url: 'javascript:alert(1)' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(opened).toEqual(['https://etherscan.io/tx/0xab']);
    expect(await caller(await startCore())('app:openUrl', { url: 'https://etherscan.io/' })).toEqual({ ok: true, data: { opened: false } });
  });
});

describe('polling within the bounds', () => {
  it('never polls faster than the lower bound or slower than the upper one, backing off past it only after failures', () => {
    const bounds = { minMs: 1000, maxMs: 5000 };
    expect(pollDelayWithin(bounds, 0, 0)).toBe(1000);
    expect(pollDelayWithin(bounds, 20_000, 0)).toBe(2000);
    expect(pollDelayWithin(bounds, 10 * 60_000, 0)).toBe(5000);
    expect(pollDelayWithin(bounds, 0, 2)).toBe(4000);
    expect(pollDelayWithin(bounds, 10 * 60_000, 10)).toBe(30_000);
    expect(pollDelayWithin({ minMs: 250, maxMs: 120_000 }, 10 * 60_000 * 20, 3)).toBe(120_000);
  });
});
