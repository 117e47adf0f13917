import { describe, expect, it } from 'vitest';
import type { Account } from '../../../../main/contract/index.ts';
import { Accounts } from '../../../../renderer/src/accounts/accounts.svelte.ts';
import { Drafts } from '../../../../renderer/src/editor/drafts.svelte.ts';
import type { Api } from '../../../../renderer/src/lib/bridge.ts';
import { LaterWrites } from '../../../../renderer/src/lib/later-writes.ts';
import { Workspace } from '../../../../renderer/src/queries/workspace.svelte.ts';

/**
 * The IPC bridge, answering saveDraft only when the test says so, in any order: the renderer's
 * state must end as the last call asked, whichever answer comes back last.
 */
const ACCOUNT: Account = {
  id: 'a1',
  label: 'Remote',
  kind: 'user',
  handle: null,
  baseUrl: 'http://127.0.0.1:1',
  serviceName: 'Remote',
  keyHint: '••••a1b2',
  keyStorage: 'keychain',
  isLocal: false,
};

function heldApi() {
  const held: { channel: string; payload: unknown; answer: (value: unknown) => void }[] = [];
  const api = {
    invoke: (channel: string, payload: unknown) => {
      if (channel === 'accounts:list') {
        return Promise.resolve({ ok: true, data: { accounts: [ACCOUNT], activeAccountId: 'a1', keychain: { available: true } } });
      }
      return new Promise((answer) => held.push({ channel, payload, answer }));
    },
    on: () => () => {},
  } as unknown as Api;
  return { api, held };
}

async function workspaceWithAccount() {
  const { api, held } = heldApi();
  const accounts = new Accounts(api);
  await accounts.load();
  const later = new LaterWrites();
  return { workspace: new Workspace(api, accounts, new Drafts(api, later), later), held };
}

describe('new queries kept on this computer', () => {
  it('keeps the later call when an earlier save answers after it', async () => {
    const { workspace, held } = await workspaceWithAccount();
    const typed = workspace.keepNew('n1', { name: 'Made offline', sql: 'SELECT 9' });
    const later = workspace.keepNew('n1', { name: 'Made offline', sql: 'SELECT 9' }, true);
    expect(held.map((call) => call.channel)).toEqual(['workspace:saveDraft', 'workspace:saveDraft']);
    held[1]!.answer({ ok: true, data: { updatedAt: '2026-11-25T09:00:01.000Z' } });
    await later;
    held[0]!.answer({ ok: true, data: { updatedAt: '2026-11-25T09:00:00.000Z' } });
    await typed;
    expect(workspace.newDrafts).toHaveLength(1);
    expect(workspace.newDrafts[0]).toMatchObject({ name: 'Made offline', createWhenOnline: true });
  });

  it('drops a discarded one even when a save before the discard answers late', async () => {
    const { workspace, held } = await workspaceWithAccount();
    const typed = workspace.keepNew('n1', { name: 'Draft', sql: 'SELECT 1' });
    const dropped = workspace.keepNew('n1', null);
    held[1]!.answer({ ok: true, data: {} });
    await dropped;
    held[0]!.answer({ ok: true, data: { updatedAt: '2026-11-25T09:00:00.000Z' } });
    await typed;
    expect(workspace.newDrafts).toEqual([]);
  });

  it('keeps two new queries apart, whatever order their saves answer in', async () => {
    const { workspace, held } = await workspaceWithAccount();
    const first = workspace.keepNew('n1', { name: 'First', sql: 'SELECT 1' }, true);
    const second = workspace.keepNew('n2', { name: 'Second', sql: 'SELECT 2' }, true);
    held[1]!.answer({ ok: true, data: { updatedAt: '2026-11-25T09:00:01.000Z' } });
    await second;
    held[0]!.answer({ ok: true, data: { updatedAt: '2026-11-25T09:00:00.000Z' } });
    await first;
    expect(workspace.newDrafts.map((draft) => draft.name).sort()).toEqual(['First', 'Second']);
  });
});
