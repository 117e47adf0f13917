import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Uploads that meet other requests halfway: a table deleted while rows are sent to it.

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

async function createTable(who: Who, name: string, columns: string[]): Promise<void> {
  const created = await h.post(
    '/api/v1/uploads',
    { namespace: who, table_name: name, schema: columns.map((c) => ({ name: c, type: 'integer' })) },
    as(who),
  );
  expect(created.status).toBe(200);
}

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
