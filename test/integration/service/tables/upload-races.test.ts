import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Uploads that meet other requests halfway: a table deleted while rows are sent to it, and uploads
// of one context at once, which together must not pass its plan's storage (1 MB free).

// A free account for each race, so that none starts with another's tables.
const ACCOUNTS = {
  accounts: [
    { handle: 'alice', type: 'user', plan: 'plus', api_keys: ['key-alice'] },
    { handle: 'dan', type: 'user', plan: 'free', api_keys: ['key-dan'] },
    { handle: 'erin', type: 'user', plan: 'free', api_keys: ['key-erin'] },
    { handle: 'fay', type: 'user', plan: 'free', api_keys: ['key-fay'] },
  ],
};
const KEYS = { alice: 'key-alice', dan: 'key-dan', erin: 'key-erin', fay: 'key-fay' } as const;
const PLAN_BYTES = 1024 * 1024;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

type Who = keyof typeof KEYS;
const as = (who: Who, extra: Record<string, string> = {}) => withApiKey(KEYS[who], extra);

const tableFiles = () => readdirSync(join(h.dataDir, 'tables')).sort();
const bodyFiles = () =>
  existsSync(join(h.dataDir, 'tmp')) ? readdirSync(join(h.dataDir, 'tmp')).filter((f) => f.startsWith('upload-')) : [];

/** A request whose body is sent in pieces (no declared size) until `end` is called. */
function openUpload(path: string, headers: Record<string, string>) {
  const { port } = new URL(h.service.baseUrl);
  const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false });
  const answer = new Promise<{ status: number; body: Json }>((resolve, reject) => {
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
  });
  return { write: (text: string) => req.write(text), end: () => req.end(), answer };
}

/** Waits until the service has begun saving an upload's body: it has checked the request by then. */
async function bodyBeingSaved(): Promise<void> {
  while (bodyFiles().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function createTable(who: Who, name: string, columns: string[], type = 'integer'): Promise<void> {
  const created = await h.post(
    '/api/v1/uploads',
    { namespace: who, table_name: name, schema: columns.map((c) => ({ name: c, type })) },
    as(who),
  );
  expect(created.status).toBe(200);
}

/** A CSV of one text column `v`, `bytes` long. */
function csvOf(bytes: number): string {
  const row = `${'x'.repeat(99)}\n`;
  const rows = row.repeat(Math.floor((bytes - 4) / row.length));
  return `v\n${rows}${'y'.repeat(bytes - 2 - rows.length - 1)}\n`;
}

const insert = (who: Who, table: string, csv: string) =>
  h.post(`/api/v1/uploads/${who}/${table}/insert`, undefined, { ...as(who, { 'content-type': 'text/csv' }), body: csv });

/** The storage the context's tables take, as the list says. */
async function storedBytes(who: Who): Promise<number> {
  const listed: Json = (await h.get('/api/v1/uploads', as(who))).body;
  return listed.tables.reduce((sum: number, t: Json) => sum + Number(t.table_size_bytes), 0);
}

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe('a table deleted while rows are sent to it', () => {
  it('answers 404 and keeps no file of the rows sent', async () => {
    const before = tableFiles();
    await createTable('alice', 'racy', ['a']);
    const insert = openUpload('/api/v1/uploads/alice/racy/insert', { 'x-dune-api-key': KEYS.alice, 'content-type': 'text/csv' });
    insert.write('a\n1\n');
    await bodyBeingSaved();
    expect((await h.post('/api/v1/uploads/alice/racy', undefined, { ...as('alice'), method: 'DELETE' })).status).toBe(200);
    insert.write('2\n');
    insert.end();
    const answer = await insert.answer;
    expect(answer).toEqual({ status: 404, body: { error: 'table alice.racy not found' } });
    expect(tableFiles()).toEqual(before);
    expect(bodyFiles()).toEqual([]);
  });
});

describe("a context's uploads at once", () => {
  const refusal = /^upload storage of the free plan \(1 MB\) would be exceeded: /;

  it('are refused past the plan together, when their bodies declare their sizes', async () => {
    await createTable('dan', 'twice', ['v'], 'varchar');
    const csv = csvOf(600_602);
    expect(csv.length).toBe(600_602);
    const answers = await Promise.all([insert('dan', 'twice', csv), insert('dan', 'twice', csv)]);
    expect(statuses(answers)).toEqual([200, 402]);
    expect(answers.find((a) => a.status === 402)!.body.error).toMatch(refusal);
    expect(await storedBytes('dan')).toBe(600_602);
    // what the refused one held is free again
    expect((await insert('dan', 'twice', csvOf(PLAN_BYTES - 600_602))).status).toBe(200);
    expect(await storedBytes('dan')).toBe(PLAN_BYTES);
  });

  it('are refused past the plan together, when their bodies come in pieces', async () => {
    await createTable('erin', 'twice', ['v'], 'varchar');
    const csv = csvOf(600_602);
    const sending = [0, 1].map(() =>
      openUpload('/api/v1/uploads/erin/twice/insert', { 'x-dune-api-key': KEYS.erin, 'content-type': 'text/csv' }),
    );
    // every byte sent before either body ends, so that both are in before either is stored
    for (const upload of sending) upload.write(csv);
    for (const upload of sending) upload.end();
    const answers = await Promise.all(sending.map((upload) => upload.answer));
    const stored = answers.filter((a) => a.status === 200).length;
    expect(stored).toBeLessThan(2);
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused).toMatchObject({ status: 402, body: { error: refusal } });
    expect(await storedBytes('erin')).toBe(stored * 600_602);
    // none of them holds storage once answered
    expect((await insert('erin', 'twice', csvOf(PLAN_BYTES - stored * 600_602))).status).toBe(200);
  });

  it('CSV uploads are refused past the plan together', async () => {
    const data = csvOf(600_602);
    const answers = await Promise.all(
      ['first', 'second'].map((table_name) => h.post('/api/v1/uploads/csv', { table_name, data }, as('fay'))),
    );
    const stored = answers.filter((a) => a.status === 200).length;
    expect(stored).toBeLessThan(2);
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused).toMatchObject({ status: 402, body: { error: refusal } });
    expect(await storedBytes('fay')).toBe(stored * 600_602);
  });
});
