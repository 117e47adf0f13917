import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../../../main/service/accounts/account-store.ts';
import { Database } from '../../../../main/service/storage/duckdb.ts';
import { META_SCHEMA } from '../../../../main/service/storage/meta-schema.ts';

// Every request looks its key up, so a key found is kept in memory: what an account's key or plan
// becomes must still be what the next request sees.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-keys-'));
let db: Database;
let accounts: AccountStore;

beforeAll(async () => {
  db = await Database.open(join(dir, 'service.duckdb'), META_SCHEMA);
  accounts = new AccountStore(db);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('API keys', () => {
  it('finds the account of a key, and the account the key moved to', async () => {
    const alice = await accounts.upsert('alice', 'user', 'free');
    const bob = await accounts.upsert('bob', 'user', 'plus');
    await accounts.replaceApiKeys(alice.id, 'k-shared');
    expect((await accounts.byApiKey('k-shared'))?.handle).toBe('alice');
    await accounts.replaceApiKeys(bob.id, 'k-shared');
    expect((await accounts.byApiKey('k-shared'))?.handle).toBe('bob');
  });

  it('refuses, at once, a key the account no longer holds, and keeps the ones it still does', async () => {
    const dan = await accounts.upsert('dan', 'user', 'free');
    await accounts.replaceApiKeys(dan.id, 'k-dan-1', 'k-dan-2');
    expect((await accounts.byApiKey('k-dan-1'))?.handle).toBe('dan');
    expect((await accounts.byApiKey('k-dan-2'))?.handle).toBe('dan');
    await accounts.replaceApiKeys(dan.id, 'k-dan-2', 'k-dan-3');
    expect(await accounts.byApiKey('k-dan-1')).toBeNull();
    expect((await accounts.byApiKey('k-dan-2'))?.handle).toBe('dan');
    expect((await accounts.byApiKey('k-dan-3'))?.handle).toBe('dan');
    await accounts.replaceApiKeys(dan.id);
    expect(await accounts.byApiKey('k-dan-2')).toBeNull();
  });

  it("answers an account's new plan, and nothing for a key no one holds", async () => {
    const carol = await accounts.upsert('carol', 'user', 'free');
    await accounts.replaceApiKeys(carol.id, 'k-carol');
    expect((await accounts.byApiKey('k-carol'))?.plan).toBe('free');
    await accounts.upsert('carol', 'user', 'premium');
    expect((await accounts.byApiKey('k-carol'))?.plan).toBe('premium');
    expect(await accounts.byApiKey('k-nobody')).toBeNull();
  });

  it('hands out a copy, so a caller cannot change the account others are given', async () => {
    const found = (await accounts.byApiKey('k-carol'))!;
    found.plan = 'free';
    expect((await accounts.byApiKey('k-carol'))?.plan).toBe('premium');
  });
});
