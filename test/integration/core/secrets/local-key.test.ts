import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { keepLocalKey, keptLocalKey } from '../../../../main/core/secrets/local-key.ts';
import type { KeychainBackend } from '../../../../main/core/secrets/os-keychain.ts';
import { startService } from '../../../../main/service/index.ts';
import { memoryKeychain } from '../../../unit/core/memory-keychain.ts';

// The hosts' start, as main/electron/backend.ts and main/web/cli.ts do it: the Local key kept in
// the keychain is handed to the embedded service, which keeps only its hash.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-local-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function hostStart(vault: KeyVault, dataDir: string): Promise<string | null> {
  const kept = await keptLocalKey(vault);
  const service = await startService({ dataDir, demoApiKey: kept ?? undefined });
  try {
    await keepLocalKey(vault, kept, service.demoApiKey);
    const answer = await fetch(`${service.baseUrl}/api/v1/queries`, { headers: { 'x-dune-api-key': service.demoApiKey ?? '' } });
    expect(answer.status).toBe(200);
    return service.demoApiKey;
  } finally {
    await service.close();
  }
}

describe("the Local account's key", () => {
  it('is the same at every start where the keychain keeps it', async () => {
    const vault = new KeyVault(memoryKeychain());
    const dataDir = join(dir, 'kept');
    const first = await hostStart(vault, dataDir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await hostStart(vault, dataDir)).toBe(first);
  });

  it('is a fresh one at each start where no keychain answers, and works', async () => {
    const refusing: KeychainBackend = {
      get: () => Promise.reject(new Error('no Secret Service')),
      set: () => Promise.reject(new Error('no Secret Service')),
      delete: () => Promise.reject(new Error('no Secret Service')),
    };
    const vault = new KeyVault(refusing);
    const dataDir = join(dir, 'fresh');
    const first = await hostStart(vault, dataDir);
    const second = await hostStart(vault, dataDir);
    expect(second).not.toBe(first);
  });
});
