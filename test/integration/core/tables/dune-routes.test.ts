import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { startDuneShapes, type DuneShapes } from '../../../dune-shapes/dune-shapes-proxy.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';
import { sql, upload, type Call, type UploadArgs } from './tables-harness.ts';

// The table features against a service that answers as Dune does today: only the /uploads routes
// (the legacy /table ones were removed on 2026-03-01), and a CSV upload answered with its table
// name alone, so the table's full name comes from the list.

const KEY = 'alice-key-dune-routes-01';
let harness: Harness;
let shapes: DuneShapes;
let call: Call;
let small: Call;
const ids = { whole: '', parts: '' };

const columns: UploadArgs['columns'] = [
  { name: 'id', type: 'bigint' },
  { name: 'label', type: 'varchar' },
];
const csvOf = (count: number) => ['id,label', ...Array.from({ length: count }, (_, i) => `${i + 1},"row ${i + 1}"`)].join('\n') + '\n';

async function addAccount(target: Call): Promise<string> {
  const added = await target('accounts:add', { label: 'alice at Dune', baseUrl: shapes.baseUrl, apiKey: KEY });
  if (!added.ok) throw new Error(added.error.message);
  return added.data.id;
}

beforeAll(async () => {
  harness = await startHarness({ accounts: { accounts: [{ handle: 'alice', type: 'user', plan: 'plus', api_keys: [KEY] }] } });
  shapes = await startDuneShapes(harness.baseUrl);
  call = caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()) }));
  small = caller(
    await harness.startCore({
      keyVault: new KeyVault(memoryKeychain()),
      dataDir: `${harness.coreDir}-parts`,
      uploadLimits: { singleBytes: 1024, partBytes: 256 },
    }),
  );
  ids.whole = await addAccount(call);
  ids.parts = await addAccount(small);
});

afterAll(async () => {
  await shapes?.close();
  await harness?.close();
});

describe("tables at Dune's /uploads routes", () => {
  it('the stand-in has no legacy table route, as Dune has none now', async () => {
    const legacy = await fetch(`${shapes.baseUrl}/api/v1/tables`, { headers: { 'x-dune-api-key': KEY } });
    expect(legacy.status).toBe(404);
  });

  it('uploads in one request, finds the full name in the list, lists and deletes the table', async () => {
    const done = await upload(call, { accountId: ids.whole, tableName: 'whole', csv: csvOf(3), columns, rows: 3 });
    expect(done).toEqual({ ok: true, data: { fullName: 'dune.alice.dataset_whole', rows: 3, mode: 'single' } });
    const listed = await call('tables:list', { accountId: ids.whole });
    expect(listed.ok && listed.data.tables.map((t) => t.fullName)).toContain('dune.alice.dataset_whole');
    expect(await call('tables:delete', { accountId: ids.whole, fullName: 'dune.alice.dataset_whole' })).toEqual({ ok: true, data: {} });
    const after = await call('tables:list', { accountId: ids.whole });
    expect(after.ok && after.data.tables.map((t) => t.fullName)).not.toContain('dune.alice.dataset_whole');
  });

  it('creates a table and inserts its parts, then replaces it in parts', async () => {
    const first = await upload(small, { accountId: ids.parts, tableName: 'parted', csv: csvOf(200), columns, rows: 200 });
    expect(first).toEqual({ ok: true, data: { fullName: 'dune.alice.dataset_parted', rows: 200, mode: 'parts' } });
    const again = await upload(small, { accountId: ids.parts, tableName: 'parted', csv: csvOf(150), columns, rows: 150 });
    expect(again).toEqual({ ok: true, data: { fullName: 'dune.alice.dataset_parted', rows: 150, mode: 'parts' } });
    const [counted] = await sql(harness.baseUrl, KEY, 'SELECT count(*) AS n, max(id) AS top FROM dune.alice.dataset_parted');
    expect(counted).toEqual({ n: 150, top: 150 });
  });
});
