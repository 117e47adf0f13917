import { DuneClient } from '@duneanalytics/client-sdk';
import { ACCOUNTS } from '../service/accounts-fixture.ts';
import { startHarness, type Harness, type Json } from '../service/service-harness.ts';

// The official TypeScript client hard-codes the real service's host and has no base-URL option
// (TOOLCHAIN.md). Inside these tests only, `fetch` sends that host's requests to the embedded
// service instead. Every other URL, the `next_uri`s the service returns included, goes out as it is:
// so the client follows the service's links exactly as it would follow the real one's.
const REAL_SERVICE = 'https://api.dune.com';

/** Fast status polling; the client's default is one second between polls. */
export const POLL = { pingFrequency: 0.05 };

/** Below the client's default batch of 32000 rows and the 5000 of the demo trades, so both get lowered and paged. */
export const MAX_PAGE_ROWS = 2000;

export interface ClientHarness extends Harness {
  /** The official client, calling with this API key. */
  client(key: string): DuneClient;
  /** Every row of an execution's result, read from the service page by page with plain offsets (not next_uri). */
  rowsOf(executionId: string, key: string, options?: string): Promise<Json[]>;
}

/**
 * The embedded service with the demo account's public queries (1 to 4) and the fixture accounts
 * (alice plus, bob free, acme a premium team), and `fetch` rewritten until `stop()`.
 */
export async function startClientHarness(): Promise<ClientHarness> {
  // Only a data directory started without accounts gets the demo account and its queries, so the
  // fixture accounts are added by a restart.
  const h = await startHarness({ maxPageRows: MAX_PAGE_ROWS });
  await h.restart({ accounts: ACCOUNTS });

  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: string | URL | Request, init?: RequestInit) =>
    realFetch(
      typeof input === 'string' && input.startsWith(REAL_SERVICE) ? h.service.baseUrl + input.slice(REAL_SERVICE.length) : input,
      init,
    );
  const stopService = h.stop;

  return Object.assign(h, {
    client: (key: string) => new DuneClient(key),
    async rowsOf(executionId: string, key: string, options = '') {
      const rows: Json[] = [];
      for (;;) {
        const page = `/api/v1/execution/${executionId}/results?limit=1000&offset=${rows.length}${options}`;
        const { status, body } = await h.get(page, { headers: { 'x-dune-api-key': key } });
        if (status !== 200) throw new Error(`${page} answered ${status}: ${JSON.stringify(body)}`);
        rows.push(...body.result.rows);
        if (rows.length >= body.result.metadata.total_row_count) return rows;
      }
    },
    async stop() {
      globalThis.fetch = realFetch;
      await stopService();
    },
  });
}
