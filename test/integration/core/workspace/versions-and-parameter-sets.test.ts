import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { accountDir } from '../../../../main/core/workspace/account-dirs.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// A query's versions and parameter sets kept by core on disk, against the embedded service: each
// save from here and each version a sync reads is recorded, and both survive a restart.

const KEY = 'alice-versions-key-0000';
let harness: Harness;
let accountId = '';
const vault = new KeyVault(memoryKeychain());

beforeAll(async () => {
  harness = await startHarness({ accounts: { accounts: [{ handle: 'alice', type: 'user', plan: 'plus', api_keys: [KEY] }] } });
  const added = await caller(await harness.startCore({ keyVault: vault }))('accounts:add', {
    label: 'alice',
    baseUrl: harness.baseUrl,
    apiKey: KEY,
  });
  if (!added.ok) throw new Error(added.error.message);
  accountId = added.data.id;
});

afterAll(async () => {
  await harness?.close();
});

describe('query versions kept on this computer', () => {
  it('records each save with its SQL, and a version another app saved when a sync reads it, across a restart', async () => {
    const call = caller(await harness.startCore({ keyVault: vault }));
    const created = await call('queries:create', { accountId, name: 'Volume', sql: 'SELECT 1 AS one' });
    if (!created.ok) throw new Error(created.error.message);
    let query = created.data;
    for (const sql of ['SELECT 2 AS two', 'SELECT 3 AS three']) {
      const saved = await call('queries:save', { accountId, queryId: query.id, baseVersion: query.version, edit: { sql } });
      if (!saved.ok || saved.data.status !== 'saved') throw new Error('the save did not go through');
      query = saved.data.query;
    }
    const listed = await call('versions:list', { accountId, queryId: query.id });
    expect(listed.ok && listed.data.versions.map((v) => v.sql)).toEqual(['SELECT 3 AS three', 'SELECT 2 AS two', 'SELECT 1 AS one']);
    expect(listed.ok && listed.data.versions[0]!.version).toBe(query.version);

    const patched = await fetch(`${harness.baseUrl}/api/v1/query/${query.id}`, {
      method: 'PATCH',
      headers: { 'X-Dune-Api-Key': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query_sql: 'SELECT 4 AS four' }),
    });
    expect(patched.status).toBe(200);
    await call('workspace:refresh', { accountId });

    const restarted = caller(await harness.startCore({ keyVault: vault }));
    const after = await restarted('versions:list', { accountId, queryId: query.id });
    expect(after.ok && after.data.versions.map((v) => [v.version, v.sql])).toEqual([
      [query.version + 1, 'SELECT 4 AS four'],
      [query.version, 'SELECT 3 AS three'],
      [query.version - 1, 'SELECT 2 AS two'],
      [query.version - 2, 'SELECT 1 AS one'],
    ]);
  });

  it('counts the query as last read among its versions, when it was read before versions were kept', async () => {
    const call = caller(await harness.startCore({ keyVault: vault }));
    const created = await call('queries:create', { accountId, name: 'Older', sql: 'SELECT 1 AS older' });
    if (!created.ok) throw new Error(created.error.message);
    rmSync(join(accountDir(join(harness.coreDir, 'workspaces'), accountId), 'versions'), { recursive: true });

    const upgraded = caller(await harness.startCore({ keyVault: vault }));
    const listed = await upgraded('versions:list', { accountId, queryId: created.data.id });
    expect(listed.ok && listed.data.versions.map((v) => [v.version, v.sql])).toEqual([[created.data.version, 'SELECT 1 AS older']]);
  });

  it('keeps parameter sets across a restart, and refuses a blank name saying what was wrong', async () => {
    const call = caller(await harness.startCore({ keyVault: vault }));
    const saved = await call('paramsets:save', { accountId, queryId: 42, name: 'last week', values: { days: '7' } });
    expect(saved.ok).toBe(true);
    const blank = await call('paramsets:save', { accountId, queryId: 42, name: '  ', values: {} });
    expect(blank.ok ? null : blank.error).toMatchObject({ code: 'invalid_request', details: [{ field: 'name' }] });

    const restarted = caller(await harness.startCore({ keyVault: vault }));
    const listed = await restarted('paramsets:list', { accountId, queryId: 42 });
    expect(listed.ok && listed.data.sets.map((set) => [set.name, set.values])).toEqual([['last week', { days: '7' }]]);
  });

  it("checks a set's values against the query's parameters, by the rules of its form", async () => {
    const call = caller(await harness.startCore({ keyVault: vault }));
    const created = await call('queries:create', {
      accountId,
      name: 'By days',
      sql: "SELECT {{days}} AS days, '{{chain}}' AS chain",
      parameters: [{ key: 'days', type: 'number', value: '7' }],
    });
    if (!created.ok) throw new Error(created.error.message);
    const queryId = created.data.id;
    const refused = await call('paramsets:save', { accountId, queryId, name: 'odd', values: { days: 'a week', chain: 'base', gone: '1' } });
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'invalid_request',
      details: [
        { field: 'values.days', message: expect.stringMatching(/“a week” is not a number/) },
        { field: 'values.gone', message: `“gone” is not a parameter of query #${queryId}.` },
      ],
    });
    const saved = await call('paramsets:save', { accountId, queryId, name: 'base', values: { days: '30', chain: 'base' } });
    expect(saved.ok && saved.data.sets.map((set) => set.name)).toEqual(['base']);
  });
});
