import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Slots } from '../../../../main/service/http/slots.ts';
import { PageWriter } from '../../../../main/service/results/page-writer.ts';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { withApiKey } from '../run-sql.ts';
import { startHarness, type Harness } from '../service-harness.ts';

// A download asks for ten Parquet pages at once. Written all at once they share the cores and are
// all ready late; so a context's Parquet pages are written one to a core, the rest in the order
// they came, and another context's pages do not wait behind them.

const CORES = availableParallelism();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h?.stop());

async function run(who: keyof typeof KEYS, sql: string): Promise<string> {
  const started = await h.post('/api/v1/sql/execute', { sql }, withApiKey(KEYS[who]));
  expect(started.status).toBe(200);
  await h.waitUntilFinishedAs(started.body.execution_id, KEYS[who]);
  return started.body.execution_id;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean): Promise<void> {
  while (!done()) await settle(5);
}

describe('Parquet pages of one context', () => {
  it('are written one to a core, in the order asked, without holding up another context', async () => {
    const alice = await run('alice', 'select range as n from range(10000)');
    const carol = await run('carol', 'select range as n from range(10000)');
    // each write is held at its start until the gate opens, and noted there by its first row
    const started: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const write = PageWriter.prototype.parquet;
    // a request has joined its context's turns once it reaches them
    const joined = vi.spyOn(Slots.prototype, 'run');
    const spy = vi.spyOn(PageWriter.prototype, 'parquet').mockImplementation(async function (this: PageWriter, ...args) {
      started.push(Number(/rowid >= (\d+)/.exec(args[2].sql)?.[1]));
      await gate;
      return write.apply(this, args);
    });
    try {
      const page = (who: keyof typeof KEYS, executionId: string, offset: number) =>
        fetch(`${h.service.baseUrl}/api/v1/execution/${executionId}/results/csv?limit=100&offset=${offset}`, {
          headers: { 'x-dune-api-key': KEYS[who], accept: 'application/vnd.apache.parquet' },
        });
      const asked = Array.from({ length: 3 * CORES }, (_, i) => i * 100);
      const alicePages = [];
      for (const [i, offset] of asked.entries()) {
        alicePages.push(page('alice', alice, offset));
        // each request writing, or once the cores are taken in line, before the next is sent
        await until(() => (i < CORES ? started.length : joined.mock.calls.length) > i);
      }
      await settle(200);
      expect(started).toEqual(asked.slice(0, CORES));
      const carolPage = page('carol', carol, 500);
      await until(() => started.length > CORES);
      expect(started.at(-1)).toBe(500);
      open();
      const answers = await Promise.all([...alicePages, carolPage]);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(answers.map((a) => a.headers.get('content-type'))).toEqual(answers.map(() => 'application/vnd.apache.parquet'));
      // the waiting ones were written in the order they were asked for
      expect(started).toEqual([...asked.slice(0, CORES), 500, ...asked.slice(CORES)]);
    } finally {
      open();
      spy.mockRestore();
      joined.mockRestore();
    }
  });
});
