import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// Freshness against the embedded service (issue 36): a query's max age kept on disk, the service's
// latest result for exactly the values asked for, and pins.

let harness: Harness;
const keyVault = new KeyVault(memoryKeychain());
const newCall = async () => caller(await harness.startCore({ keyVault }));

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => harness?.close());

async function dailyVolumeId(): Promise<number> {
  const client = createServiceClient({ baseUrl: harness.baseUrl, serviceName: 'DUNE', apiKey: harness.demoApiKey ?? '' });
  const listed = await client.queries.list();
  const query = listed.ok ? listed.data.queries.find((q) => q.name === 'Daily volume by chain') : undefined;
  if (!query) throw new Error('no demo query Daily volume by chain');
  return query.id;
}

describe('freshness', () => {
  it("answers the service's latest result for the same values only, once a max age is set, and keeps the max age", async () => {
    let call = await newCall();
    const queryId = await dailyVolumeId();
    const base = { chain: 'base', min_usd: '1000' };
    const ethereum = { chain: 'ethereum', min_usd: '1000' };
    const ask = (parameters: Record<string, string>) => call('freshness:query', { accountId: 'local', queryId, parameters });

    // without a max age the service is not asked
    expect(await ask(base)).toEqual({ ok: true, data: { maxAgeMinutes: null, latest: null } });
    expect(await call('freshness:setMaxAge', { accountId: 'local', queryId, maxAgeMinutes: 60 })).toEqual({
      ok: true,
      data: { maxAgeMinutes: 60 },
    });
    expect(await ask(base)).toEqual({ ok: true, data: { maxAgeMinutes: 60, latest: null } });

    const started = await call('executions:run', { accountId: 'local', queryId, parameters: base });
    if (!started.ok) throw new Error(started.error.message);
    const done = await harness.finishedUpdate(started.data.executionId);

    const same = await ask(base);
    expect(same).toMatchObject({ ok: true, data: { maxAgeMinutes: 60, latest: { executionId: done.executionId, isFinished: true } } });
    const latest = same.ok ? same.data.latest : null;
    expect(Date.parse(latest?.endedAt ?? '')).not.toBeNaN();
    expect(Date.parse(latest?.expiresAt ?? '')).toBeGreaterThan(Date.parse(latest?.endedAt ?? ''));
    // a result of other values is not the latest of these
    expect(await ask(ethereum)).toEqual({ ok: true, data: { maxAgeMinutes: 60, latest: null } });

    // kept with the workspace: a new core reads it back
    call = await newCall();
    expect(await ask(ethereum)).toMatchObject({ ok: true, data: { maxAgeMinutes: 60 } });
    expect(await call('freshness:setMaxAge', { accountId: 'local', queryId, maxAgeMinutes: null })).toMatchObject({ ok: true });
    call = await newCall();
    expect(await ask(base)).toEqual({ ok: true, data: { maxAgeMinutes: null, latest: null } });
  }, 60_000);

  it('refuses a max age that is not a whole number of minutes up to 90 days, saying which field', async () => {
    const call = await newCall();
    for (const maxAgeMinutes of [0, 1.5, 90 * 24 * 60 + 1]) {
      const refused = await call('freshness:setMaxAge', { accountId: 'local', queryId: 1, maxAgeMinutes });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      expect(refused.ok ? '' : refused.error.message).toContain('maxAgeMinutes');
    }
    expect(await call('freshness:setMaxAge', { accountId: 'nobody', queryId: 1, maxAgeMinutes: 5 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('pins a result until the service expires it, and unpins it', async () => {
    let call = await newCall();
    const started = await call('executions:run', { accountId: 'local', queryId: await dailyVolumeId() });
    if (!started.ok) throw new Error(started.error.message);
    const done = await harness.finishedUpdate(started.data.executionId);
    const ids = { accountId: 'local', executionId: done.executionId };

    expect(await call('freshness:pinState', ids)).toEqual({ ok: true, data: { pinned: false, keptUntil: null } });
    expect(await call('freshness:pin', { ...ids, pinned: true })).toEqual({ ok: true, data: { pinned: true, keptUntil: done.expiresAt } });
    call = await newCall();
    expect(await call('freshness:pinState', ids)).toEqual({ ok: true, data: { pinned: true, keptUntil: done.expiresAt } });
    expect(await call('freshness:pin', { ...ids, pinned: false })).toEqual({ ok: true, data: { pinned: false, keptUntil: null } });
    expect(await call('freshness:pinState', ids)).toEqual({ ok: true, data: { pinned: false, keptUntil: null } });
    // an execution the service does not know is not pinned
    expect(await call('freshness:pin', { accountId: 'local', executionId: '01NOSUCHEXECUTION', pinned: true })).toMatchObject({
      ok: false,
    });
  }, 60_000);
});
