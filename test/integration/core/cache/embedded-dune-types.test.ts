import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUNE_TYPES, I128_MIN, PAST_128_BITS, TYPES_SQL, U128_MAX } from '../../service/dune-typed-sql.ts';
import { startCacheHarness, withoutSource, type CacheHarness } from './cache-harness.ts';

// The embedded service's result of each DuckDB type, downloaded as its Parquet pages, reads back
// from the cache as the service's JSON gave it: Dune's type names, bytes as 0x hex, every digit.

let harness: CacheHarness;
let executionId: string;
const contentTypes: string[] = [];
let fromService: unknown;

/** Passes every request on to the service, noting the Content-Type of each CSV endpoint's answer. */
async function notingFront(target: string) {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        if (incoming.url?.includes('/results/csv')) contentTypes.push(String(answer.headers['content-type']));
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  harness = await startCacheHarness({}, {}, notingFront);
  executionId = await harness.runSql(TYPES_SQL);
  fromService = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 2 });
  expect(await harness.cacheWhole(executionId)).toMatchObject({ state: 'cached', rowsLoaded: 2 });
});
afterAll(async () => harness?.close());

describe("a result of the embedded service's types in the cache", () => {
  it('was downloaded as Parquet', () => {
    expect(contentTypes.length).toBeGreaterThan(0);
    expect(contentTypes.every((type) => type === 'application/vnd.apache.parquet')).toBe(true);
  });

  it("reads back as the service's JSON gave it, each value exactly", async () => {
    const cached = await harness.call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 2 });
    if (!cached.ok) throw new Error(cached.error.message);
    expect(cached.data.fromCache).toBeDefined();
    expect(withoutSource(cached)).toEqual(fromService);
    expect(cached.data.columns.map((c) => c.type)).toEqual(DUNE_TYPES);
    expect(cached.data.rows).toEqual([
      [
        '0xdeadbeef',
        '0x616200',
        U128_MAX,
        I128_MIN,
        PAST_128_BITS,
        '18446744073709551615',
        '2024-01-02 01:04:05.678 UTC',
        '2024-01-02 03:04:05.678 UTC',
        '12345678901234567890.123456789012345678',
        '[1,null,3]',
        `{"to":"0x01ab","amount":${U128_MAX},"a b":"x"}`,
        '{"k":["0xff"]}',
        '{"a":[1,2.5,"x"],"b":null}',
        '[{"to":"0x01"},null]',
      ],
      Array(14).fill(null),
    ]);
  });
});
