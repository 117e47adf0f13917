import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../../../main/service/index.ts';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { newDataDir, startHarness, type Harness } from '../service-harness.ts';

// Every execution runs within its plan's time, memory, spill and result limits, and all of them
// within the service's memory and spill for executions; past a limit it fails saying which.

const MB = 1024 * 1024;
/** A cross join that runs for hours unless stopped, with next to no memory. */
const LONG_SQL = 'SELECT count(*) AS n FROM range(1000000) a, range(1000000) b WHERE a.range * b.range = 7';
/** A sort of about 200 MB of text: it spills past a small memory limit. */
const SORT_SQL =
  'SELECT count(*) AS n, max(r) AS m FROM (SELECT row_number() OVER (ORDER BY t) AS r FROM (SELECT md5(range::varchar) || md5((range + 1)::varchar) AS t FROM range(3000000)))';
/** One value of 320 MB: it cannot be spilled in parts. */
const ONE_BIG_VALUE_SQL = "SELECT length(string_agg(md5(range::varchar), ',')) AS n FROM range(10000000)";

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function runSql(sql: string, key = h!.key): Promise<string> {
  const { status, body } = await h!.post('/api/v1/sql/execute', { sql }, { headers: { 'x-dune-api-key': key } });
  if (status !== 200) throw new Error(`execute answered ${status}: ${JSON.stringify(body)}`);
  return body.execution_id as string;
}

const statusOf = async (id: string, key: string) =>
  (await h!.get(`/api/v1/execution/${id}/status`, { headers: { 'x-dune-api-key': key } })).body;

async function waitForStateAs(id: string, key: string, state: string) {
  for (;;) {
    const body = await statusOf(id, key);
    if (body.state === state) return body;
    if (body.is_execution_finished) throw new Error(`finished as ${body.state} (${JSON.stringify(body.error)}) before reaching ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("a plan's limits", () => {
  it('fails an execution past its time limit, naming the limit and the plan', async () => {
    h = await startHarness({ executionTimeLimitMillis: { plus: 1000 } });
    const status = await h.waitUntilFinished(await runSql(LONG_SQL));
    expect(status.state).toBe('QUERY_STATE_FAILED');
    expect(status.error).toEqual({
      type: 'FAILED_TYPE_EXECUTION_FAILED',
      message: "the execution ran past the plus plan's time limit of 1 second and was cancelled",
    });
    expect(status.execution_ended_at).toMatch(/Z$/);
  });

  it('fails an execution past its spill budget or its memory budget, naming the budget and the plan', async () => {
    h = await startHarness({ executionMemoryBytes: 64 * MB, executionSpillBytes: { plus: 16 * MB } });
    const spilled = await h.waitUntilFinished(await runSql(SORT_SQL));
    expect(spilled.state).toBe('QUERY_STATE_FAILED');
    expect(spilled.error.message).toMatch(
      /^the execution went past the plus plan's spill budget: 16 MB of disk for data that does not fit in its 64 MB of memory/,
    );
    expect(spilled.error.message).not.toContain('SET memory_limit');

    const big = await h.waitUntilFinished(await runSql(ONE_BIG_VALUE_SQL));
    expect(big.state).toBe('QUERY_STATE_FAILED');
    expect(big.error.message).toMatch(/^the execution went past the plus plan's memory budget of 64 MB/);

    // within the budget, the same context's DuckDB answers on
    const small = await h.waitUntilFinished(await runSql('SELECT 42 AS answer'));
    expect(small.state).toBe('QUERY_STATE_COMPLETED');
  }, 60_000);

  it("cuts a result at its plan's size: COMPLETED_PARTIAL for the free plan, whole for plus", async () => {
    h = await startHarness({ accounts: ACCOUNTS, resultCapBytes: { free: 10_000 } });
    const free = await h.waitUntilFinishedAs(await runSql('SELECT range AS n FROM range(100000)', KEYS.bob), KEYS.bob);
    expect(free.state).toBe('QUERY_STATE_COMPLETED_PARTIAL');
    expect(free.result.result_set_size).toBeLessThanOrEqual(10_000);
    const plus = await h.waitUntilFinishedAs(await runSql('SELECT range AS n FROM range(100000)', KEYS.alice), KEYS.alice);
    expect(plus.state).toBe('QUERY_STATE_COMPLETED');
    expect(plus.result_metadata.total_row_count).toBe(100_000);
  });
});

describe("the service's budget for executions", () => {
  it('keeps an execution PENDING while the memory it needs is taken by another context, and starts it once given back', async () => {
    h = await startHarness({
      accounts: ACCOUNTS,
      serviceExecutionMemoryBytes: 64 * MB,
      executionMemoryBytes: 64 * MB,
      runningExecutions: 2,
    });
    // alice's DuckDB is kept after her first execution: the budget it holds goes to carol's once it is idle
    expect((await h.waitUntilFinishedAs(await runSql('SELECT 1 AS one', KEYS.alice), KEYS.alice)).state).toBe('QUERY_STATE_COMPLETED');
    const first = await runSql(LONG_SQL, KEYS.carol);
    await waitForStateAs(first, KEYS.carol, 'QUERY_STATE_EXECUTING');
    const second = await runSql(LONG_SQL, KEYS.alice);
    const waiting = await statusOf(second, KEYS.alice);
    expect(waiting).toMatchObject({ state: 'QUERY_STATE_PENDING', queue_position: 1 });

    expect((await h.post(`/api/v1/execution/${first}/cancel`, undefined, { headers: { 'x-dune-api-key': KEYS.carol } })).body).toEqual({
      success: true,
    });
    await waitForStateAs(second, KEYS.alice, 'QUERY_STATE_EXECUTING');
    await h.post(`/api/v1/execution/${second}/cancel`, undefined, { headers: { 'x-dune-api-key': KEYS.alice } });
    expect((await h.waitUntilFinishedAs(second, KEYS.alice)).state).toBe('QUERY_STATE_CANCELLED');
  });

  it('refuses to start with a plan whose memory is over the total, naming both', async () => {
    const dataDir = newDataDir();
    await expect(
      startService({ dataDir, executionMemoryBytes: { premium: 2048 * MB }, serviceExecutionMemoryBytes: 1024 * MB }),
    ).rejects.toThrow("the premium plan's execution memory (2 GB) is more than the service's total for executions (1 GB)");
    rmSync(dataDir, { recursive: true, force: true });
  });
});
