import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from './core-harness.ts';

// Archive and private, set from the app on the embedded service, and kept in the local workspace.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('queries:setFlags', () => {
  it('archives, unarchives and makes private on the service, and the list on disk follows', async () => {
    const call = caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()) }));
    const created = await call('queries:create', { accountId: 'local', name: 'Flagged', sql: 'select 1' });
    if (!created.ok) throw new Error(created.error.message);
    const queryId = created.data.id;

    expect(await call('queries:setFlags', { accountId: 'local', queryId, archived: true, isPrivate: true })).toMatchObject({
      ok: true,
      data: { id: queryId, isArchived: true, isPrivate: true },
    });
    const listed = await call('workspace:open', { accountId: 'local' });
    expect(listed.ok && listed.data.queries.find((q) => q.id === queryId)).toMatchObject({ isArchived: true, isPrivate: true });

    expect(await call('queries:setFlags', { accountId: 'local', queryId, archived: false })).toMatchObject({
      ok: true,
      data: { isArchived: false, isPrivate: true },
    });
    // a query of nobody's: the service's refusal, as a value
    expect(await call('queries:setFlags', { accountId: 'local', queryId: 999_999, archived: true })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
