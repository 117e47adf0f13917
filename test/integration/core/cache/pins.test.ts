import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startCacheHarness, until, type CacheHarness } from './cache-harness.ts';

// Pinned results (issue 36): the cache keeps a pinned entry past its budget, across a restart,
// until the service's expiry; unpinned, the entry is evicted like any other.

let harness: CacheHarness;
let dir: string;
let cache: ResultCache | null = null;
let clock = Date.now();
const statuses: CacheStatus[] = [];

beforeAll(async () => {
  harness = await startCacheHarness({ maxPageRows: 2000 });
  dir = mkdtempSync(join(tmpdir(), 'querydesk-pins-'));
});
afterAll(async () => {
  await cache?.close();
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pinned results in the cache', () => {
  it('are kept past the budget until they expire, across a restart, and evicted once unpinned', async () => {
    const client = createServiceClient({ baseUrl: harness.service!.baseUrl, apiKey: harness.service!.demoApiKey!, serviceName: 'DUNE' });
    const [a, b, c] = [await harness.run('Demo trades'), await harness.run('Demo trades'), await harness.run('Demo trades')];
    const status = await client.executions.status(a);
    if (!status.ok) throw new Error(status.error.message);
    const bytes = status.data.resultMetadata!.totalResultSetBytes!;
    const expiresAt = status.data.expiresAt!;
    // room for two entries
    const open = () =>
      openResultCache({ dir, budgetBytes: Math.floor(bytes * 2.5), onStatus: (s) => statuses.push(s), now: () => new Date(clock) });
    const state = async (executionId: string) => (await cache!.status('local', executionId)).state;
    async function cacheOne(executionId: string) {
      const seen = statuses.length;
      expect(await cache!.start('local', client, executionId, false)).toMatchObject({ ok: true, data: { state: 'downloading' } });
      await until(() => statuses.slice(seen).some((s) => s.executionId === executionId && s.state !== 'downloading'));
      clock += 120_000;
    }

    cache = await open();
    await cacheOne(a);
    await cache.pinned.pin({ accountId: 'local', executionId: a, expiresAt, pinnedAt: new Date(clock).toISOString() });
    await cacheOne(b);
    // a is the least recently used, but pinned: b makes room for c
    await cacheOne(c);
    expect([await state(a), await state(b), await state(c)]).toEqual(['cached', 'absent', 'cached']);

    // the pin is on disk: after a restart, a still stays and c makes room
    await cache.close();
    cache = await open();
    expect(await cache.pinned.get('local', a)).toMatchObject({ expiresAt });
    await cacheOne(b);
    expect([await state(a), await state(b), await state(c)]).toEqual(['cached', 'cached', 'absent']);

    // unpinned, a is an entry like any other: the least recently used makes room first
    await cache.pinned.unpin('local', a);
    expect(await cache.pinned.get('local', a)).toBeNull();
    await cacheOne(c);
    expect([await state(a), await state(b), await state(c)]).toEqual(['absent', 'cached', 'cached']);

    // past the service's expiry a pin keeps nothing, and is gone
    await cache.pinned.pin({ accountId: 'local', executionId: b, expiresAt, pinnedAt: new Date(clock).toISOString() });
    clock = Date.parse(expiresAt) + 1000;
    await cache.close();
    cache = await open();
    expect(await state(b)).toBe('absent');
    expect(JSON.parse(readFileSync(join(dir, 'pins.json'), 'utf8'))).toEqual({ pins: [] });
  }, 90_000);

  it('opens with no pins when their file cannot be read, and sets the file aside', async () => {
    await cache?.close();
    writeFileSync(join(dir, 'pins.json'), '{ "pins": [ broken');
    cache = await openWithDefaults();
    expect(await cache.pinned.get('local', 'any')).toBeNull();
    expect(readdirSync(dir).some((name) => name.startsWith('pins.json.unreadable-'))).toBe(true);
    await cache.pinned.pin({ accountId: 'local', executionId: 'x', expiresAt: null, pinnedAt: new Date().toISOString() });
    expect(JSON.parse(readFileSync(join(dir, 'pins.json'), 'utf8')).pins).toHaveLength(1);
  });
});

function openWithDefaults() {
  return openResultCache({ dir, onStatus: () => undefined });
}
