import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountSettings, defaultAccountSettings } from '../../../main/core/accounts/profiles.ts';

// The Electron host's settings store on a temporary folder: the real electron-store, with only the
// `electron` module it imports replaced (vitest.config.ts inlines electron-store so the mock reaches it).
vi.mock('electron', () => {
  const app = { getPath: () => dir, getName: () => 'Querydesk', getVersion: () => '0.0.0' };
  return { default: { app, ipcMain: { on: () => undefined }, shell: {} }, app };
});

const { electronSettingsStore, openSettingsFile } = await import('../../../main/electron/settings-store.ts');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-electron-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const profile = {
  id: 'a1',
  label: 'Work',
  kind: 'team' as const,
  handle: 'analysts',
  baseUrl: 'https://api.dune.com',
  serviceName: 'DUNE',
};
const accountsIn = (file: ReturnType<typeof openSettingsFile>) =>
  electronSettingsStore(file, 'accounts', AccountSettings, defaultAccountSettings);

describe('the electron-store settings', () => {
  it('start from the defaults, keep what is written in settings.json, and read it back after a restart', () => {
    const store = accountsIn(openSettingsFile(dir));
    expect(store.read()).toEqual(defaultAccountSettings());
    store.write({ accounts: [profile], activeAccountId: 'a1' });
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({
      accounts: { accounts: [profile], activeAccountId: 'a1' },
    });
    expect(accountsIn(openSettingsFile(dir)).read()).toEqual({ accounts: [profile], activeAccountId: 'a1' });
  });

  it('refuse to write what the schema refuses', () => {
    const store = accountsIn(openSettingsFile(dir));
    expect(() => store.write({ accounts: [{ ...profile, kind: 'robot' }], activeAccountId: null } as never)).toThrow();
    expect(store.read()).toEqual(defaultAccountSettings());
  });

  it('keep a value the schema refuses aside, and start again from the defaults', () => {
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ accounts: { accounts: 'hand-edited' } }));
    const file = openSettingsFile(dir);
    expect(accountsIn(file).read()).toEqual(defaultAccountSettings());
    const kept = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.entries(kept)).toEqual([[expect.stringMatching(/^accounts-unreadable-\d+$/), { accounts: 'hand-edited' }]]);
  });

  it('keep a file that is not JSON aside, and start a fresh one', () => {
    writeFileSync(join(dir, 'settings.json'), '{ not json');
    const store = accountsIn(openSettingsFile(dir));
    expect(store.read()).toEqual(defaultAccountSettings());
    store.write({ accounts: [profile], activeAccountId: null });
    const aside = readdirSync(dir).filter((name) => name.startsWith('settings.json.unreadable-'));
    expect(aside.map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(['{ not json']);
  });
});
