import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadProgress } from '../../../../main/contract/index.ts';
import type { Core } from '../../../../main/core/index.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { expectServiceWords, expectWellSaid } from '../../words/read-words.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';
import { startFaultProxy } from '../fault-proxy.ts';
import { sql, stageUpload, startLosingProxy, upload, type Call, type UploadArgs } from './tables-harness.ts';

// Uploads through core to the embedded service: one request, replacing, the service's refusals,
// and the path in parts where every row must arrive exactly once, retries included.

const keys = {
  alice: 'alice-key-tables-0001',
  bob: 'bob-key-tables-0002',
  acme: 'acme-key-tables-0003',
  dave: 'dave-key-tables-0004',
  erin: 'erin-key-tables-0005',
};
let harness: Harness;
let call: Call;
let small: Call;
const ids = { alice: '', bob: '', acme: '', aliceSmall: '', daveSmall: '' };
const progress: UploadProgress[] = [];

const PRICES = 'day,token,price\n2024-01-01,WETH,2300.5\n2024-01-02,"W,BTC",42000\n';
const priceColumns: UploadArgs['columns'] = [
  { name: 'day', type: 'date' },
  { name: 'token', type: 'varchar' },
  { name: 'price', type: 'double' },
];

/** `count` rows with ids 1…count, a quoted text with a comma and a line break, and a number. */
function bigCsv(count: number): string {
  const lines = ['id,label,amount'];
  for (let i = 1; i <= count; i += 1) lines.push(`${i},"row ${i}, ""quoted""\nsecond line",${i * 1.5}`);
  return lines.join('\n') + '\n';
}
const bigColumns: UploadArgs['columns'] = [
  { name: 'id', type: 'bigint' },
  { name: 'label', type: 'varchar' },
  { name: 'amount', type: 'double' },
];

async function addAccount(target: Call, label: string, apiKey: string, baseUrl = harness.baseUrl): Promise<string> {
  const added = await target('accounts:add', { label, baseUrl, apiKey });
  if (!added.ok) throw new Error(added.error.message);
  return added.data.id;
}

async function countRows(table: string): Promise<{ n: number; distinct: number }> {
  const [row] = await sql(harness.baseUrl, keys.alice, `SELECT count(*) AS n, count(DISTINCT id) AS "distinct" FROM ${table}`);
  return { n: Number(row!.n), distinct: Number(row!.distinct) };
}

beforeAll(async () => {
  harness = await startHarness({
    accounts: {
      accounts: [
        { handle: 'alice', type: 'user', plan: 'plus', api_keys: [keys.alice] },
        { handle: 'bob', type: 'user', plan: 'free', api_keys: [keys.bob] },
        { handle: 'acme', type: 'team', plan: 'premium', api_keys: [keys.acme] },
        // No table and no query: nothing tells core its handle before it uploads.
        { handle: 'dave', type: 'user', plan: 'plus', api_keys: [keys.dave] },
        { handle: 'erin', type: 'user', plan: 'plus', api_keys: [keys.erin] },
      ],
    },
  });
  const core: Core = await harness.startCore({ keyVault: new KeyVault(memoryKeychain()) });
  call = caller(core);
  ids.alice = await addAccount(call, 'alice', keys.alice);
  ids.bob = await addAccount(call, 'bob', keys.bob);
  ids.acme = await addAccount(call, 'acme', keys.acme);
  // A second core whose files count as large from 4 KB, sent in parts of about 1 KB.
  const partsCore = await harness.startCore({
    keyVault: new KeyVault(memoryKeychain()),
    dataDir: `${harness.coreDir}-parts`,
    uploadLimits: { singleBytes: 4096, partBytes: 1024 },
    emit: (event, payload) => {
      if (event === 'tables:uploadProgress') progress.push(payload as UploadProgress);
    },
  });
  small = caller(partsCore);
  ids.aliceSmall = await addAccount(small, 'alice', keys.alice);
  ids.daveSmall = await addAccount(small, 'dave', keys.dave);
});

afterAll(async () => {
  await harness?.close();
});

describe('the list of tables', () => {
  it('answers the handle that will name the first table, told by a query made after the account was added', async () => {
    const erin = await addAccount(call, 'erin', keys.erin);
    expect(await call('tables:list', { accountId: erin })).toEqual({ ok: true, data: { tables: [], handle: null } });
    const made = await fetch(`${harness.baseUrl}/api/v1/query`, {
      method: 'POST',
      headers: { 'X-Dune-API-Key': keys.erin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'First', query_sql: 'SELECT 1' }),
    });
    expect(made.status).toBe(200);
    expect(await call('tables:list', { accountId: erin })).toEqual({ ok: true, data: { tables: [], handle: 'erin' } });
  });
});

describe('an upload in one request', () => {
  it('creates dune.<handle>.dataset_<name>, lists it with its rows, and its rows can be queried', async () => {
    const done = await upload(call, { accountId: ids.alice, tableName: 'prices', csv: PRICES, columns: priceColumns, rows: 2 });
    expect(done).toEqual({ ok: true, data: { fullName: 'dune.alice.dataset_prices', rows: 2, mode: 'single' } });
    const listed = await call('tables:list', { accountId: ids.alice });
    expect(listed.ok && listed.data.tables).toContainEqual(
      expect.objectContaining({
        name: 'prices',
        fullName: 'dune.alice.dataset_prices',
        isPrivate: false,
        rows: 2,
        sizeBytes: expect.any(Number),
      }),
    );
    expect(listed.ok && listed.data.handle).toBe('alice');
    expect(await sql(harness.baseUrl, keys.alice, 'SELECT * FROM dune.alice.dataset_prices ORDER BY day')).toEqual([
      { day: '2024-01-01', token: 'WETH', price: 2300.5 },
      { day: '2024-01-02', token: 'W,BTC', price: 42000 },
    ]);
  });

  it('renames the columns as asked, in place of the header row of the file', async () => {
    const csv = '1st,#tag\r\na,b\r\n';
    const columns: UploadArgs['columns'] = [
      { name: 'col_1st', type: 'varchar' },
      { name: 'tag', type: 'varchar' },
    ];
    expect((await upload(call, { accountId: ids.alice, tableName: 'renamed', csv, columns, rows: 1 })).ok).toBe(true);
    expect(await sql(harness.baseUrl, keys.alice, 'SELECT * FROM dune.alice.dataset_renamed')).toEqual([{ col_1st: 'a', tag: 'b' }]);
  });

  it('keeps every character whole, wherever the chunks and the reads of the file cut the text', async () => {
    const words = ['ünïcødé', '東京', 'emoji 🚀✨', 'quote "x"', 'back\\slash'];
    const lines = ['n,word'];
    // About 3 MB: the file is read back in pieces of 1 MB, which fall inside characters.
    for (let i = 0; i < 90_000; i += 1) lines.push(`${i},"${words[i % words.length]!.replaceAll('"', '""')}"`);
    const csv = lines.join('\n') + '\n';
    const columns: UploadArgs['columns'] = [
      { name: 'n', type: 'bigint' },
      { name: 'word', type: 'varchar' },
    ];
    const done = await upload(call, { accountId: ids.alice, tableName: 'words', csv, columns, rows: 90_000, chunkChars: 100_003 });
    expect(done).toMatchObject({ ok: true, data: { mode: 'single' } });
    const counted = await sql(
      harness.baseUrl,
      keys.alice,
      'SELECT word, count(*) AS n FROM dune.alice.dataset_words GROUP BY word ORDER BY word',
    );
    expect(counted).toEqual([...words].sort().map((word) => ({ word, n: 18_000 })));
  });

  it('replaces a table of the same name; a refused upload leaves the old one as it was', async () => {
    const first = { accountId: ids.alice, tableName: 'swap', columns: [{ name: 'a', type: 'bigint' as const }] };
    expect((await upload(call, { ...first, csv: 'a\n1\n', rows: 1 })).ok).toBe(true);
    expect((await upload(call, { ...first, csv: 'a\n2\n3\n', rows: 2 })).ok).toBe(true);
    expect(await sql(harness.baseUrl, keys.alice, 'SELECT a FROM dune.alice.dataset_swap ORDER BY a')).toEqual([{ a: 2 }, { a: 3 }]);

    const refused = await upload(call, { ...first, csv: 'x\n4\n', columns: [{ name: '9x', type: 'bigint' }], rows: 1 }).catch(
      (error: Error) => error.message,
    );
    expect(refused).toBe('Column 1 “9x” must start with a letter.');
    expect(await sql(harness.baseUrl, keys.alice, 'SELECT a FROM dune.alice.dataset_swap ORDER BY a')).toEqual([{ a: 2 }, { a: 3 }]);
  });

  it('refuses to replace a table the user did not agree to replace, as an upload in parts does', async () => {
    const args = { accountId: ids.alice, tableName: 'unasked', columns: [{ name: 'a', type: 'bigint' as const }] };
    expect((await upload(call, { ...args, csv: 'a\n1\n', rows: 1 })).ok).toBe(true);
    const refused = await upload(call, { ...args, csv: 'a\n5\n', rows: 1, replace: false });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: 'A table named unasked exists already; confirm that the upload replaces it.' },
    });
    expect(await sql(harness.baseUrl, keys.alice, 'SELECT a FROM dune.alice.dataset_unasked')).toEqual([{ a: 1 }]);
  });

  it('passes on the refusal of a private upload below the premium plan, and allows it on premium', async () => {
    const args = { tableName: 'secret', csv: 'a\n1\n', columns: [{ name: 'a', type: 'bigint' as const }], rows: 1, isPrivate: true };
    const refused = await upload(call, { ...args, accountId: ids.alice });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: "private uploads need a premium plan; 'alice' is on the plus plan" },
    });
    expect(await upload(call, { ...args, accountId: ids.acme })).toMatchObject({
      ok: true,
      data: { fullName: 'dune.acme.dataset_secret' },
    });
    const listed = await call('tables:list', { accountId: ids.acme });
    expect(listed.ok && listed.data.tables.find((t) => t.name === 'secret')?.isPrivate).toBe(true);
  });

  it("passes on the refusal when the plan's storage is used up", async () => {
    const big = { tableName: 'big1', csv: `v\n${'x'.repeat(600 * 1024)}\n`, columns: [{ name: 'v', type: 'varchar' as const }], rows: 1 };
    expect((await upload(call, { ...big, accountId: ids.bob, chunkChars: 128 * 1024 })).ok).toBe(true);
    const over = await upload(call, { ...big, tableName: 'big2', accountId: ids.bob, chunkChars: 128 * 1024 });
    expect(over).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/free plan \(1 MB\) would be exceeded/) },
    });
  });

  it('deletes a table', async () => {
    expect(
      (await upload(call, { accountId: ids.alice, tableName: 'gone', csv: 'a\n1\n', columns: [{ name: 'a', type: 'bigint' }], rows: 1 }))
        .ok,
    ).toBe(true);
    expect(await call('tables:delete', { accountId: ids.alice, fullName: 'dune.alice.dataset_gone' })).toEqual({ ok: true, data: {} });
    const listed = await call('tables:list', { accountId: ids.alice });
    expect(listed.ok && listed.data.tables.map((t) => t.name)).not.toContain('gone');
  });
});

describe('an upload in parts', () => {
  it('creates the table from the schema and inserts every row exactly once', async () => {
    const done = await upload(small, { accountId: ids.aliceSmall, tableName: 'big', csv: bigCsv(300), columns: bigColumns, rows: 300 });
    expect(done).toEqual({ ok: true, data: { fullName: 'dune.alice.dataset_big', rows: 300, mode: 'parts' } });
    expect(await countRows('dune.alice.dataset_big')).toEqual({ n: 300, distinct: 300 });
    const [first] = await sql(harness.baseUrl, keys.alice, 'SELECT label, amount FROM dune.alice.dataset_big WHERE id = 7');
    expect(first).toEqual({ label: 'row 7, "quoted"\nsecond line', amount: 10.5 });
  });

  it('finds the namespace of an account that has nothing yet, and leaves nothing else behind', async () => {
    const done = await upload(small, { accountId: ids.daveSmall, tableName: 'first', csv: bigCsv(120), columns: bigColumns, rows: 120 });
    expect(done).toMatchObject({ ok: true, data: { fullName: 'dune.dave.dataset_first', mode: 'parts' } });
    const listed = await small('tables:list', { accountId: ids.daveSmall });
    expect(listed.ok && listed.data.tables.map((t) => t.fullName)).toEqual(['dune.dave.dataset_first']);
    expect(await countRows('dune.dave.dataset_first')).toEqual({ n: 120, distinct: 120 });
  });

  it('says which chunk came out of order, and which upload or table name it does not know', async () => {
    const uploadId = await stageUpload(small, {
      accountId: ids.aliceSmall,
      tableName: 'chunks',
      csv: bigCsv(10),
      columns: bigColumns,
      rows: 10,
    });
    const outOfOrder = await small('tables:uploadChunk', { uploadId, index: 7, text: 'x' });
    const unknown = await small('tables:uploadChunk', { uploadId: 'no-such-upload', index: 0, text: 'x' });
    const badName = await small('tables:delete', { accountId: ids.aliceSmall, fullName: 'just_a_name' });
    expect(badName.ok ? '' : badName.error.message).toBe('“just_a_name” is not a table’s full name (namespace.table).');
    for (const refused of [outOfOrder, unknown, badName]) {
      expect(refused.ok).toBe(false);
      if (!refused.ok) expectWellSaid(refused.error);
    }
    await small('tables:uploadCancel', { uploadId });
  });

  it('replaces an existing table when asked, and refuses to when not', async () => {
    const refused = await upload(small, {
      accountId: ids.aliceSmall,
      tableName: 'big',
      csv: bigCsv(200),
      columns: bigColumns,
      rows: 200,
      replace: false,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('exists already') } });
    if (!refused.ok) expectWellSaid(refused.error);
    expect(
      (await upload(small, { accountId: ids.aliceSmall, tableName: 'big', csv: bigCsv(200), columns: bigColumns, rows: 200 })).ok,
    ).toBe(true);
    expect(await countRows('dune.alice.dataset_big')).toEqual({ n: 200, distinct: 200 });
  });

  describe('a replacement the service would refuse leaves the old table as it was', () => {
    const kept = { accountId: '', tableName: 'kept', columns: bigColumns };
    beforeAll(async () => {
      kept.accountId = ids.aliceSmall;
      const first = await upload(small, { ...kept, csv: bigCsv(150), rows: 150 });
      expect(first).toMatchObject({ ok: true, data: { mode: 'parts' } });
    });

    it('refuses column names that differ only in case before anything is sent', async () => {
      const csv = bigCsv(200).replace('id,label,amount', 'id,label,Label');
      const columns: UploadArgs['columns'] = [...bigColumns.slice(0, 2), { name: 'Label', type: 'double' }];
      const refused = await upload(small, { ...kept, csv, columns, rows: 200 }).catch((error: Error) => error.message);
      expect(refused).toBe('Column 3 “Label” repeats the name of column 2 (names are compared without case).');
      expect(await countRows('dune.alice.dataset_kept')).toEqual({ n: 150, distinct: 150 });
    });

    it('asks the service whether it makes the new table before deleting the old one (a private table on the plus plan)', async () => {
      const refused = await upload(small, { ...kept, csv: bigCsv(200), rows: 200, isPrivate: true });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'forbidden',
          message: "private tables need a premium plan; 'alice' is on the plus plan (the table dune.alice.dataset_kept is as it was)",
          details: { retryable: false, left: 'nothing' },
        },
      });
      expect(await countRows('dune.alice.dataset_kept')).toEqual({ n: 150, distinct: 150 });
      const listed = await small('tables:list', { accountId: ids.aliceSmall });
      expect(listed.ok && listed.data.tables.filter((t) => t.fullName.includes('querydesk_check_'))).toEqual([]);
    });
  });

  it('goes in parts or in one request by the size the form measured, the rule its warning went by', async () => {
    const args = { accountId: ids.aliceSmall, columns: bigColumns, csv: bigCsv(120), rows: 120 };
    expect(Buffer.byteLength(args.csv)).toBeGreaterThan(4096);
    expect(await upload(small, { ...args, tableName: 'told_single', fileBytes: 4095 })).toMatchObject({
      ok: true,
      data: { mode: 'single' },
    });
    const few = bigCsv(10);
    expect(Buffer.byteLength(few)).toBeLessThan(4096);
    expect(await upload(small, { ...args, csv: few, rows: 10, tableName: 'told_parts', fileBytes: 4096 })).toMatchObject({
      ok: true,
      data: { mode: 'parts' },
    });
  });

  for (const when of ['after', 'before'] as const) {
    it(`retries a part whose answer was lost (${when} the service got it) without duplicating a row`, async () => {
      const proxy = await startLosingProxy(harness.baseUrl, (n) => (n === 3 ? when : null));
      try {
        const accountId = await addAccount(small, `alice via proxy ${when}`, keys.alice, proxy.baseUrl);
        const table = `lossy_${when}`;
        const uploadId = await stageUpload(small, { accountId, tableName: table, csv: bigCsv(250), columns: bigColumns, rows: 250 });
        const failed = await small('tables:uploadCommit', { uploadId });
        expect(failed).toMatchObject({ ok: false, error: { code: 'unreachable', details: { retryable: true } } });
        if (!failed.ok) expectWellSaid(failed.error);
        const retried = await small('tables:uploadRetry', { uploadId });
        expect(retried).toMatchObject({ ok: true, data: { fullName: `dune.alice.dataset_${table}`, mode: 'parts' } });
        expect(await countRows(`dune.alice.dataset_${table}`)).toEqual({ n: 250, distinct: 250 });
        // The lost part is sent again only when it had not arrived.
        const last = progress.filter((p) => p.uploadId === uploadId).at(-1)!;
        expect(last).toMatchObject({ phase: 'done', partsDone: last.partsTotal });
        expect(proxy.inserts).toBe(when === 'after' ? last.partsTotal : last.partsTotal + 1);
        const again = await small('tables:uploadRetry', { uploadId });
        expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
      } finally {
        await proxy.close();
      }
    });
  }

  it('sends again a part the service refused with an error of its own, which means nothing was written', async () => {
    let inserts = 0;
    const proxy = await startFaultProxy(harness.baseUrl, (request) =>
      request.url?.endsWith('/insert') && (inserts += 1) === 2
        ? { status: 500, body: JSON.stringify({ error: 'insert failed, nothing written' }) }
        : null,
    );
    try {
      const accountId = await addAccount(small, 'alice via proxy 500', keys.alice, proxy.baseUrl);
      const uploadId = await stageUpload(small, { accountId, tableName: 'refused_part', csv: bigCsv(250), columns: bigColumns, rows: 250 });
      const failed = await small('tables:uploadCommit', { uploadId });
      expect(failed).toMatchObject({
        ok: false,
        error: { code: 'server_error', message: expect.stringContaining('insert failed, nothing written'), details: { retryable: true } },
      });
      expect(failed.ok ? '' : failed.error.message).toMatch(
        /^insert failed, nothing written \(part \d+ of \d+ was not confirmed; the parts before it are in the table\)$/,
      );
      if (!failed.ok) expectServiceWords(failed.error, 'insert failed, nothing written');
      expect((await small('tables:uploadRetry', { uploadId })).ok).toBe(true);
      expect(await countRows('dune.alice.dataset_refused_part')).toEqual({ n: 250, distinct: 250 });
    } finally {
      await proxy.close();
    }
  });

  it('deletes what was sent when the upload is cancelled after a failure', async () => {
    const proxy = await startLosingProxy(harness.baseUrl, (n) => (n === 2 ? 'before' : null));
    try {
      const accountId = await addAccount(small, 'alice via proxy cancel', keys.alice, proxy.baseUrl);
      const uploadId = await stageUpload(small, { accountId, tableName: 'halfway', csv: bigCsv(250), columns: bigColumns, rows: 250 });
      expect((await small('tables:uploadCommit', { uploadId })).ok).toBe(false);
      expect(await small('tables:uploadCancel', { uploadId })).toEqual({ ok: true, data: { cancelled: true } });
      const listed = await small('tables:list', { accountId: ids.aliceSmall });
      expect(listed.ok && listed.data.tables.map((t) => t.name)).not.toContain('halfway');
    } finally {
      await proxy.close();
    }
  });
});
