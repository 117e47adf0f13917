import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ParameterDefinition } from '../../../main/contract/index.ts';
import { createCore, type Core } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { accountDir } from '../../../main/core/workspace/account-dirs.ts';
import { FED_ENUM } from '../../dune-shapes/dune-parameter.ts';
import { caller, memoryKeychain } from './core-harness.ts';
import { startFakeService, type FakeAnswer, type FakeRequest, type FakeService } from './fake-service.ts';
import { until } from './workspace/workspace-harness.ts';

// A query's parameters as Dune keeps them (notes §7.2), read, edited and saved through core. A
// PATCH's `parameters` replaces the whole list (§7.3): a field the app leaves out is erased on
// Dune, so an enum fed by another query's results would lose its source.

/** A query store answering as Dune does for these routes: it keeps whatever parameter fields it is sent. */
function duneQueries() {
  const state = {
    down: false,
    record: {
      query_id: 7,
      name: 'Chains',
      description: '',
      tags: [],
      version: 3,
      parameters: [{ key: 'limit', type: 'number', value: '5' }, FED_ENUM] as Record<string, unknown>[],
      query_engine: 'v2 Dune SQL',
      query_sql: 'SELECT * FROM t WHERE chain = {{chain}} LIMIT {{limit}}',
      is_private: false,
      is_archived: false,
      is_unsaved: false,
      owner: 'alice',
    },
  };
  const answer = ({ method, path, body }: FakeRequest): FakeAnswer => {
    if (state.down) return { reset: true };
    if (path === '/api/v1/queries') return { body: { queries: [{ id: 7, name: state.record.name, owner: 'alice' }], total: 1 } };
    if (path !== '/api/v1/query/7') return { status: 404, body: { error: 'Object not found' } };
    if (method === 'GET') return { body: state.record };
    if (method !== 'PATCH') return { status: 404, body: { error: 'Object not found' } };
    const changes = JSON.parse(body) as Record<string, unknown>;
    state.record = { ...state.record, ...changes, version: state.record.version + 1 };
    return { body: { query_id: 7 } };
  };
  return { state, answer };
}

let fake: FakeService | null = null;
const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose();
  await fake?.close();
  fake = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startDune() {
  const dune = duneQueries();
  fake = await startFakeService(dune.answer);
  const dataDir = mkdtempSync(join(tmpdir(), 'querydesk-dune-parameters-'));
  dirs.push(dataDir);
  return { dune, fake, dataDir };
}

/** A core on `dataDir` whose Local account is the Dune stand-in (started again on the same folder, as an app restart does). */
async function startCore(baseUrl: string, dataDir: string) {
  const core = await createCore({
    host: 'web',
    version: '0.0.0',
    localService: { baseUrl, apiKey: 'dune-key-0000-1111' },
    emit: () => undefined,
    dataDir,
    keyVault: new KeyVault(memoryKeychain()),
  });
  cores.push(core);
  return caller(core);
}

type Call = Awaited<ReturnType<typeof startCore>>;

/**
 * Reads the query, then saves its parameters as the dialog does when only the other one's default
 * was changed; `beforeSave` runs in between.
 */
async function saveLimit(call: Call, limit: string, beforeSave = () => {}) {
  const read = await call('queries:get', { accountId: 'local', queryId: 7 });
  if (!read.ok) throw new Error(read.error.message);
  const parameters = read.data.parameters.map((p) => (p.key === 'limit' ? { ...p, value: limit } : p)) as ParameterDefinition[];
  beforeSave();
  return call('queries:save', { accountId: 'local', queryId: 7, baseVersion: read.data.version, edit: { parameters } });
}

describe('Dune parameter definitions', () => {
  it('are read with every documented field', async () => {
    const { fake, dataDir } = await startDune();
    const call = await startCore(fake.baseUrl, dataDir);
    const read = await call('queries:get', { accountId: 'local', queryId: 7 });
    expect(read.ok && read.data.parameters).toEqual([{ key: 'limit', type: 'number', value: '5' }, FED_ENUM]);
  });

  it('keep every field on Dune when the list is saved with another one changed', async () => {
    const { dune, fake, dataDir } = await startDune();
    const call = await startCore(fake.baseUrl, dataDir);
    const saved = await saveLimit(call, '10');
    expect(saved).toMatchObject({ ok: true, data: { status: 'saved' } });
    const patch = fake.requests.find((r) => r.method === 'PATCH');
    expect(JSON.parse(patch?.body ?? '{}')).toEqual({ parameters: [{ key: 'limit', type: 'number', value: '10' }, FED_ENUM] });
    expect(dune.state.record.parameters).toEqual([{ key: 'limit', type: 'number', value: '10' }, FED_ENUM]);
  });

  it('keep every field in an edit saved offline, through a restart, until it is sent', async () => {
    const { dune, fake, dataDir } = await startDune();
    const first = await startCore(fake.baseUrl, dataDir);
    const saved = await saveLimit(first, '20', () => (dune.state.down = true));
    expect(saved).toMatchObject({ ok: true, data: { status: 'pending' } });
    await cores.pop()?.dispose();
    const onDisk = readFileSync(join(accountDir(join(dataDir, 'workspaces'), 'local'), 'pending.json'), 'utf8');
    expect(JSON.parse(onDisk)).toMatchObject({ edits: [{ queryId: 7, edit: { parameters: [{ value: '20' }, FED_ENUM] } }] });

    const second = await startCore(fake.baseUrl, dataDir);
    const reopened = await second('workspace:open', { accountId: 'local' });
    expect(reopened.ok && reopened.data.pending).toMatchObject([{ queryId: 7, edit: { parameters: [{ value: '20' }, FED_ENUM] } }]);
    dune.state.down = false;
    await second('workspace:network', { online: true });
    await until(() => dune.state.record.version === 4, 'the edit to be sent');
    expect(dune.state.record.parameters).toEqual([{ key: 'limit', type: 'number', value: '20' }, FED_ENUM]);
  });

  it('saved offline by an earlier version of the app (without these fields) still load', async () => {
    const { fake, dataDir } = await startDune();
    const dir = accountDir(join(dataDir, 'workspaces'), 'local');
    mkdirSync(dir, { recursive: true });
    const edit = { parameters: [{ key: 'chain', type: 'enum', value: 'base', enumOptions: ['ethereum', 'base'], isMultiselect: false }] };
    const earlier = { queryId: 7, baseVersion: 1, edit, savedAt: '2026-01-01T00:00:00.000Z', state: 'waiting', error: null, theirs: null };
    writeFileSync(join(dir, 'pending.json'), JSON.stringify({ edits: [earlier] }));
    fake.requests.length = 0;
    const call = await startCore(fake.baseUrl, dataDir);
    const opened = await call('workspace:open', { accountId: 'local' });
    expect(opened.ok && opened.data.pending).toEqual([earlier]);
  });
});
