import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPages } from '../../../../bench/page-reader.ts';
import { DEMO_QUERY, startHarness, type Harness } from '../service-harness.ts';

// bench:service's paging client, in its process of its own, against a real service: what it
// counts is what the pages hold.

const PAGE_ROWS = 700;

describe("bench:service's page reader", () => {
  let harness: Harness;
  let id: string;
  let totalRows: number;
  beforeAll(async () => {
    harness = await startHarness();
    id = await harness.execute(DEMO_QUERY);
    totalRows = (await harness.waitUntilFinished(id)).result_metadata.total_row_count;
  });
  afterAll(() => harness.stop());

  const url = (path: string) => `${harness.service.baseUrl}/api/v1${path}`;

  /** The bytes of every page from `first`, read whole with fetch. */
  async function pagesRead(first: string, format: 'json' | 'csv'): Promise<{ bytes: number; pages: number }> {
    let uri: string | undefined = first;
    let bytes = 0;
    let pages = 0;
    while (uri) {
      const response: Response = await fetch(uri, { headers: { 'x-dune-api-key': harness.key } });
      const body = await response.text();
      bytes += Buffer.byteLength(body);
      pages++;
      uri = format === 'json' ? (JSON.parse(body).next_uri ?? undefined) : (response.headers.get('x-dune-next-uri') ?? undefined);
    }
    return { bytes, pages };
  }

  it.each(['json', 'csv'] as const)('reads every %s page: all rows, all bytes', async (format) => {
    const first = url(`/execution/${id}/results${format === 'csv' ? '/csv' : ''}?limit=${PAGE_ROWS}`);
    const read = await readPages(first, url(`/execution/${id}/status`), harness.key, format);
    const whole = await pagesRead(first, format);
    expect(whole.pages).toBe(Math.ceil(totalRows / PAGE_ROWS));
    expect(read.rows).toBe(totalRows);
    expect(read.bytes).toBe(whole.bytes);
    expect(read.seconds).toBeGreaterThan(0);
    expect(read.cpuMillis).toBeGreaterThan(0);
  });

  it('fails, rather than counts, when a page is refused', async () => {
    const first = url(`/execution/${id}/results?limit=${PAGE_ROWS}`);
    await expect(readPages(first, url(`/execution/${id}/status`), 'not-a-key', 'json')).rejects.toThrow(
      /page reader exited with 1: Error: .*results\?limit=700: HTTP 401/,
    );
  });
});
