import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// An upload is refused as soon as its limits are known to be passed, not once its body is all in:
// on its declared size before a byte is read, else when the data streamed so far reaches them.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

const MB = 1024 * 1024;
const CSV_ROWS = Buffer.from('1,2\n'.repeat(16384));
const JSON_ROWS = Buffer.from('1,2\\n'.repeat(16384)); // the same rows inside a JSON string

interface Sent {
  status: number;
  body: Json;
  /** Bytes of the body written before the answer came. */
  sent: number;
}

/**
 * Sends `head`, then `rows` again and again until `total` bytes or until the answer comes, then `tail`: a client
 * that streams a large body and watches for an early answer.
 */
function streamUpload(
  path: string,
  key: string,
  parts: { head: string; rows: Buffer; tail: string; total: number; declare: boolean; type?: string },
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(h.service.baseUrl);
    const headers: Record<string, string> = { 'x-dune-api-key': key, 'content-type': parts.type ?? 'application/json' };
    if (parts.declare) headers['content-length'] = String(parts.total);
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false });
    let sent = 0;
    let answered = false;
    req.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        req.destroy();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()), sent });
      });
    });
    // the server may close while the body is still being written: the answer is what counts
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const write = (chunk: Buffer) => {
      sent += chunk.length;
      return req.write(chunk);
    };
    const pump = () => {
      if (answered) return;
      if (sent === 0) write(Buffer.from(parts.head));
      const room = parts.total - Buffer.byteLength(parts.tail);
      while (!answered && sent < room) {
        const chunk = parts.rows.subarray(0, Math.min(parts.rows.length, room - sent));
        if (!write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && sent === room) {
        if (parts.tail !== '') write(Buffer.from(parts.tail));
        req.end();
      }
    };
    pump();
  });
}

const csvUpload = (table: string, total: number, declare: boolean) => ({
  head: `{"table_name":"${table}","data":"a,b\\n`,
  rows: JSON_ROWS,
  tail: '"}',
  total,
  declare,
});

const uploadFiles = () => readdirSync(join(h.dataDir, 'tmp')).filter((name) => name.startsWith('upload-'));

describe('upload limits', () => {
  it("refuses a free account's 150 MB upload on its declared size, before reading it", async () => {
    const answer = await streamUpload('/api/v1/table/upload/csv', KEYS.bob, csvUpload('flood', 150 * MB, true));
    expect(answer.status).toBe(402);
    expect(answer.body.error).toMatch(/upload storage of the free plan \(1 MB\) would be exceeded/);
    expect(answer.sent).toBeLessThan(16 * MB);
  });

  it('refuses an upload without a declared size once the data streamed passes the plan, and keeps no file', async () => {
    const answer = await streamUpload('/api/v1/table/upload/csv', KEYS.bob, csvUpload('flood', 150 * MB, false));
    expect(answer.status).toBe(402);
    expect(answer.body.error).toMatch(/free plan \(1 MB\) would be exceeded: 0 bytes used, \d+ more asked/);
    expect(answer.sent).toBeLessThan(24 * MB);
    expect(uploadFiles()).toEqual([]);
  });

  it('refuses a body whose declared size no upload may have with a 413', async () => {
    const answer = await streamUpload('/api/v1/table/upload/csv', KEYS.acme, csvUpload('huge', 1300 * MB, true));
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(16 * MB);
  });

  it('stores a streamed upload byte for byte, escapes and all', async () => {
    const data = 'name,note\n"Zoë","tab\tquote"" slash/ 😀"\n€,"line\nbreak"\n';
    const body = JSON.stringify({ data, table_name: 'exact' }).replace('€', '\\u20ac').replace('/', '\\/');
    const answer = await h.post('/api/v1/table/upload/csv', undefined, { ...withApiKey(KEYS.alice), body });
    expect(answer.status).toBe(200);
    expect(await runSql(h, KEYS.alice, 'select * from dune.alice.dataset_exact order by name')).toEqual([
      { name: 'Zoë', note: 'tab\tquote" slash/ 😀' },
      { name: '€', note: 'line\nbreak' },
    ]);
  });

  it('names the field a body lacks or gets wrong', async () => {
    const post = (body: string) => h.post('/api/v1/table/upload/csv', undefined, { ...withApiKey(KEYS.alice), body });
    expect((await post('{"table_name":"x"}')).body.error).toBe('Invalid request body payload: data: data must hold the CSV text');
    expect((await post('{"table_name":"x","data":7}')).body.error).toMatch(/"data" must be a string \(at byte \d+\)/);
    expect((await post('{"table_name":"X1","data":"a\\n1\\n"}')).body.error).toMatch(
      /table_name: table_name must start with a lowercase letter/,
    );
    expect((await post('{"table_name":"x","data":"a\\n1\\n"')).body.error).toMatch(/the body ends before its JSON object does/);
  });

  it('refuses an insert past the storage still free while it streams; the table keeps its rows', async () => {
    const created = await h.post(
      '/api/v1/table/create',
      {
        namespace: 'bob',
        table_name: 'small',
        schema: [
          { name: 'a', type: 'integer' },
          { name: 'b', type: 'integer' },
        ],
      },
      withApiKey(KEYS.bob),
    );
    expect(created.status).toBe(200);
    const insert = (total: number) =>
      streamUpload('/api/v1/table/bob/small/insert', KEYS.bob, {
        head: 'a,b\n',
        rows: CSV_ROWS,
        tail: '',
        total,
        declare: false,
        type: 'text/csv',
      });
    expect((await insert(64 * 1024)).status).toBe(200);
    const over = await insert(100 * MB);
    expect(over.status).toBe(402);
    expect(over.sent).toBeLessThan(24 * MB);
    // a free plan runs no SQL: the public table is counted by another context
    expect(await runSql(h, KEYS.alice, 'select count(*)::int as n from dune.bob.small')).toEqual([{ n: 16383 }]);
    expect(uploadFiles()).toEqual([]);
  });

  it('says the rule a body declared too large passes, in whole bytes', async () => {
    const created = await h.post(
      '/api/v1/uploads',
      { namespace: 'acme', table_name: 'wide', schema: [{ name: 'a', type: 'integer' }] },
      withApiKey(KEYS.acme),
    );
    expect(created.status).toBe(200);
    const insert = await streamUpload('/api/v1/uploads/acme/wide/insert', KEYS.acme, {
      head: 'a\n',
      rows: CSV_ROWS,
      tail: '',
      total: 1_300_000_000,
      declare: true,
      type: 'text/csv',
    });
    expect(insert).toMatchObject({
      status: 413,
      body: { error: "an insert's body must be at most 1.2 GB (1288490188 bytes); the body declares 1300000000 bytes" },
    });
    const csv = await streamUpload('/api/v1/uploads/csv', KEYS.acme, csvUpload('huge', 2_000_000_000, true));
    expect(csv).toMatchObject({
      status: 413,
      body: {
        error:
          'the upload must be smaller than 200 MB (209715200 bytes); the body declares 2000000000 bytes, of which at least 333322410 are data',
      },
    });
  });

  it('says how much the context already stores when it refuses storage', async () => {
    // bob's table holds the 65536 bytes inserted above
    const declared = await streamUpload('/api/v1/uploads/csv', KEYS.bob, csvUpload('flood', 150 * MB, true));
    expect(declared.body.error).toMatch(/^upload storage of the free plan \(1 MB\) would be exceeded: 65536 bytes used, \d+ more asked$/);
    const streamed = await streamUpload('/api/v1/uploads/csv', KEYS.bob, csvUpload('flood', 150 * MB, false));
    expect(streamed.body.error).toMatch(/: 65536 bytes used, \d+ more asked$/);
    const insert = await streamUpload('/api/v1/uploads/bob/small/insert', KEYS.bob, {
      head: 'a,b\n',
      rows: CSV_ROWS,
      tail: '',
      total: 2 * MB,
      declare: true,
      type: 'text/csv',
    });
    expect(insert.body.error).toBe('upload storage of the free plan (1 MB) would be exceeded: 65536 bytes used, 2097152 more asked');
    const replacing = await h.post(
      '/api/v1/uploads/csv',
      { table_name: 'near', data: `v\n${'x'.repeat(1000 * 1024)}\n` },
      withApiKey(KEYS.bob),
    );
    expect(replacing.body.error).toBe(
      'upload storage of the free plan (1 MB) would be exceeded: 65536 bytes used by other tables, 1024003 more asked',
    );
  });
});
