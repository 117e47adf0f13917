import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { filesHolding } from '../../../../bench/probes/crash-run.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';

// The service stores API keys as hashes: a copy of its data folder gives no key away, a data
// folder of a release that stored them as they are is rewritten at start, and the demo key is
// the one the host kept, or a fresh one.

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'querydesk-key-hashes-'));
  folders.push(folder);
  return folder;
}

async function status(service: RunningService, key: string): Promise<number> {
  return (await fetch(`${service.baseUrl}/api/v1/queries`, { headers: { 'x-dune-api-key': key } })).status;
}

const ACCOUNTS = {
  accounts: [
    { handle: 'alice', type: 'user', plan: 'plus', api_keys: ['alice-key-0123456789abcdefghijklmnop'] },
    { handle: 'bob', type: 'user', plan: 'plus', api_keys: ['bob-key-0123456789abcdefghijklmnopqr'] },
  ],
};
const KEYS = ACCOUNTS.accounts.flatMap((a) => a.api_keys);

describe('API keys at rest', () => {
  it('stores no key of the demo account or the accounts file in the data folder', async () => {
    const dataDir = newFolder();
    let service = await startService({ dataDir });
    const demo = service.demoApiKey!;
    await service.close();
    service = await startService({ dataDir, accounts: ACCOUNTS, demoApiKey: demo });
    try {
      for (const key of [demo, ...KEYS]) expect(await status(service, key)).toBe(200);
    } finally {
      await service.close();
    }
    for (const key of [demo, ...KEYS]) expect(filesHolding(dataDir, key)).toEqual([]);
  });

  it('gives the demo account the key the host kept, else a fresh one that replaces the one before', async () => {
    const dataDir = newFolder();
    let service = await startService({ dataDir });
    const first = service.demoApiKey!;
    await service.close();
    service = await startService({ dataDir });
    const second = service.demoApiKey!;
    try {
      expect(second).not.toBe(first);
      expect(await status(service, second)).toBe(200);
      expect(await status(service, first)).toBe(401);
    } finally {
      await service.close();
    }
    service = await startService({ dataDir, demoApiKey: second });
    try {
      expect(service.demoApiKey).toBe(second);
      expect(await status(service, second)).toBe(200);
    } finally {
      await service.close();
    }
  });

  it("makes the accounts file's keys all its accounts', refusing one taken out at the next start, and leaves the demo key", async () => {
    const dataDir = newFolder();
    let service = await startService({ dataDir });
    const demo = service.demoApiKey!;
    await service.close();
    service = await startService({ dataDir, accounts: ACCOUNTS, demoApiKey: demo });
    await service.close();
    const newBobKey = 'bob-key-new-0123456789abcdefghijklmn';
    const changed = {
      accounts: [ACCOUNTS.accounts[0]!, { ...ACCOUNTS.accounts[1]!, api_keys: [newBobKey] }],
    };
    service = await startService({ dataDir, accounts: changed, demoApiKey: demo });
    try {
      expect(await status(service, KEYS[1]!)).toBe(401);
      expect(await status(service, newBobKey)).toBe(200);
      expect(await status(service, KEYS[0]!)).toBe(200);
      expect(await status(service, demo)).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('hashes the keys a former release stored as they are, and leaves none of them in the folder', async () => {
    const dataDir = newFolder();
    const service = await startService({ dataDir, accounts: ACCOUNTS });
    await service.close();
    // as a release before hashes left it: the keys in a table of their own, as they are
    const instance = await DuckDBInstance.create(join(dataDir, 'service.duckdb'));
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE api_keys (api_key VARCHAR PRIMARY KEY, account_id INTEGER NOT NULL, created_at VARCHAR NOT NULL)`);
    await connection.run(
      `INSERT INTO api_keys SELECT k.key, a.id, '2026-01-01T00:00:00Z' FROM accounts a
       JOIN (VALUES ('alice', '${KEYS[0]}'), ('bob', '${KEYS[1]}')) k(handle, key) ON k.handle = a.handle`,
    );
    await connection.run('DROP TABLE api_key_hashes');
    await connection.run('CHECKPOINT');
    connection.closeSync();
    instance.closeSync();
    for (const key of KEYS) expect(filesHolding(dataDir, key)).toEqual(['service.duckdb']);

    const migrated = await startService({ dataDir });
    try {
      expect(await status(migrated, KEYS[0]!)).toBe(200);
      expect(await status(migrated, KEYS[1]!)).toBe(200);
      expect(await status(migrated, 'alice-key')).toBe(401);
    } finally {
      await migrated.close();
    }
    for (const key of KEYS) expect(filesHolding(dataDir, key)).toEqual([]);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('service.duckdb'))).toEqual(['service.duckdb']);
    expect(existsSync(join(dataDir, 'service.duckdb.hashing-keys'))).toBe(false);
  });
});
