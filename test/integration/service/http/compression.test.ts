import { request } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// A page of results is compressed for a client that asks, as the real service's answers are; the
// bytes that arrive are the same page once decoded. Read with node:http, which decodes nothing.

const DECODE: Record<string, (body: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  br: promisify(zlib.brotliDecompress),
  ...(typeof zlib.zstdDecompress === 'function' ? { zstd: promisify(zlib.zstdDecompress) } : {}),
};

async function raw(h: Harness, path: string, acceptEncoding?: string) {
  const headers: Record<string, string> = { 'x-dune-api-key': h.key };
  if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(`${h.service.baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function storedResult(h: Harness): Promise<string> {
  const sql = `select range as n, 'row ' || range as label, range * 1.5 as amount from range(3000)`;
  const created = await h.post('/api/v1/query', { name: 'compressed', query_sql: sql });
  const id = await h.execute(created.body.query_id, {});
  expect((await h.waitUntilFinished(id)).state).toBe('QUERY_STATE_COMPLETED');
  return id;
}

describe('compressed answers, when the service compresses for every client', () => {
  let h: Harness;
  let id: string;
  beforeAll(async () => {
    h = await startHarness({ compression: 'always' });
    id = await storedResult(h);
  });
  afterAll(() => h?.stop());

  for (const path of ['results?limit=2000', 'results/csv?limit=2000']) {
    it(`sends ${path} in each encoding asked for, and the same page once decoded`, async () => {
      const plain = await raw(h, `/api/v1/execution/${id}/${path}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // the CSV endpoints answer Parquet to a client that asks for it
      expect(plain.headers.vary).toBe(path.includes('csv') ? 'Accept, Accept-Encoding' : 'Accept-Encoding');
      for (const [encoding, decode] of Object.entries(DECODE)) {
        const answer = await raw(h, `/api/v1/execution/${id}/${path}`, encoding);
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(answer.body.length).toBeLessThan(plain.body.length / 2);
        expect((await decode(answer.body)).toString()).toBe(plain.body.toString());
      }
    });
  }

  it("gives the app's client, which asks for compression as any fetch does, the same rows", async () => {
    const asked = await fetch(`${h.service.baseUrl}/api/v1/execution/${id}/results/csv?limit=2000`, {
      headers: { 'x-dune-api-key': h.key },
    });
    expect(asked.headers.get('content-encoding')).not.toBeNull();
    await asked.text();
    const client = createServiceClient({ baseUrl: h.service.baseUrl, apiKey: h.key, serviceName: 'DUNE' });
    const page = await client.results.page({ executionId: id, offset: 2990, limit: 100 });
    expect(page.ok && page.data.rows).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ n: 2990 + i, label: `row ${2990 + i}`, amount: (2990 + i) * 1.5 })),
    );
    const csv = client.results.csvPages({ executionId: id, offset: 0, limit: 2000 });
    const first = await csv.next();
    await csv.return();
    expect(first.value && first.value.ok && first.value.data.rows.split('\n')[1]).toBe('1,row 1,1.5');
  });

  it('keeps to what the client refuses, and sends a small answer as is', async () => {
    const refused = await raw(h, `/api/v1/execution/${id}/results?limit=2000`, 'gzip;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    const small = await raw(h, `/api/v1/execution/${id}/status`, 'gzip');
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses an error as any other answer, and it reads the same', async () => {
    const filters = `label = '${'x'.repeat(2000)}' and nope = 1`;
    const answer = await raw(h, `/api/v1/execution/${id}/results?filters=${encodeURIComponent(filters)}`, 'gzip');
    const text = answer.headers['content-encoding'] === 'gzip' ? (await DECODE.gzip!(answer.body)).toString() : answer.body.toString();
    expect(JSON.parse(text).error).toMatch(/nope/);
  });
});

describe('by default', () => {
  let h: Harness;
  let id: string;
  beforeAll(async () => {
    h = await startHarness();
    id = await storedResult(h);
  });
  afterAll(() => h?.stop());

  it('sends a client on this machine its page as is, even when it asks for gzip', async () => {
    const answer = await raw(h, `/api/v1/execution/${id}/results?limit=2000`, 'gzip, br, zstd');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString()).result.rows).toHaveLength(2000);
  });
});
