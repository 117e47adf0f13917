import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openedOnUse } from '../../../../main/core/cache/opened-on-use.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';

// Core's result cache is opened at its first use, behind the hosts' first screen: until then its
// DuckDB file is not even opened, and a call made while it opens waits for it.

const root = mkdtempSync(join(tmpdir(), 'querydesk-opened-on-use-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function lazyCache(dir: string): { cache: ResultCache; opens: () => number } {
  let opens = 0;
  const cache = openedOnUse(() => {
    opens++;
    return openResultCache({ dir, budgetBytes: 1024 * 1024, onStatus: () => undefined });
  });
  return { cache, opens: () => opens };
}

describe('the result cache opened on use', () => {
  it('opens nothing until its first call, and nothing when closed unused', async () => {
    const dir = join(root, 'unused');
    const { cache, opens } = lazyCache(dir);
    await cache.close();
    expect([opens(), existsSync(join(dir, 'results.duckdb'))]).toEqual([0, false]);
  });

  it('opens once, for calls made at once while it opens, and answers each', async () => {
    const dir = join(root, 'used');
    const { cache, opens } = lazyCache(dir);
    const [usage, entry] = await Promise.all([cache.usage(), cache.use('local', '01JAAAAAAAAAAAAAAAAAAAAAAA')]);
    expect(usage).toEqual({ budgetBytes: 1024 * 1024, usedBytes: 0, entryCount: 0 });
    expect(entry).toBeNull();
    expect([opens(), existsSync(join(dir, 'results.duckdb'))]).toEqual([1, true]);
    expect(cache.db).toBeDefined();
    await cache.close();
  });

  it('fails each call with the reason when the cache cannot open', async () => {
    const cache = openedOnUse(() => Promise.reject(new Error('the cache file is not a DuckDB file')));
    await expect(cache.usage()).rejects.toThrow('not a DuckDB file');
    expect(() => cache.db).toThrow('still opening');
    await cache.close();
  });
});
