import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { localDay } from '../../../../main/core/usage/local-day.ts';
import { caller, listedQueries, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// The usage record against the embedded service: what a run and its reads cost is counted as it
// happens, kept on disk through a torn last line, and the columns asked for lower the datapoints.

let harness: Harness;
const newCore = async () => caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()) }));
const thisMonth = () => localDay(new Date()).slice(0, 7);

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function finishedRun(
  call: Awaited<ReturnType<typeof newCore>>,
): Promise<{ executionId: string; queryId: number; columns: string[] }> {
  const daily = (await listedQueries(call, 'local')).find((q) => q.name === 'Daily volume by chain');
  if (!daily) throw new Error('no demo query named Daily volume by chain');
  const started = await call('executions:run', { accountId: 'local', queryId: daily.id });
  if (!started.ok) throw new Error(started.error.message);
  const done = await harness.finishedUpdate(started.data.executionId);
  return { executionId: started.data.executionId, queryId: daily.id, columns: done.result!.columnNames };
}

describe('the usage record', () => {
  it('counts a run and its read, and keeps them through a torn last line', async () => {
    let call = await newCore();
    const { executionId, queryId, columns } = await finishedRun(call);
    const page = await call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 5 });
    if (!page.ok) throw new Error(page.error.message);
    const read = page.data.rows.length * columns.length;

    const before = await call('usage:report', { accountId: 'local', month: thisMonth() });
    if (!before.ok) throw new Error(before.error.message);
    const ofQuery = before.data.byQuery.find((q) => q.queryId === queryId);
    expect(ofQuery).toMatchObject({ executions: 1, datapoints: read, name: 'Daily volume by chain' });

    // a power cut in the middle of a line: the next start skips it, counts it, and appends after it
    appendFileSync(join(harness.coreDir, `usage-${thisMonth()}.jsonl`), '{"id":"torn","kind":"read","accou');
    call = await newCore();
    const after = await call('usage:report', { accountId: 'local', month: thisMonth() });
    if (!after.ok) throw new Error(after.error.message);
    expect(after.data.skipped).toBe(1);
    expect(after.data.total).toEqual(before.data.total);

    const again = await call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 2 });
    expect(again.ok).toBe(true);
    const lines = readFileSync(join(harness.coreDir, `usage-${thisMonth()}.jsonl`), 'utf8').split('\n');
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ kind: 'read', executionId, datapoints: 2 * columns.length });
    call = await newCore();
    const third = await call('usage:report', { accountId: 'local', month: thisMonth() });
    expect(third.ok && third.data.total.datapoints).toBe(read + 2 * columns.length);
  });

  it('reads fewer datapoints when fewer columns are asked for, as the service counts them', async () => {
    const call = await newCore();
    const { executionId, columns } = await finishedRun(call);
    expect(columns.length).toBeGreaterThan(1);
    const datapoints = async () => {
      const report = await call('usage:report', { accountId: 'local', month: thisMonth() });
      if (!report.ok) throw new Error(report.error.message);
      return report.data.total.datapoints;
    };

    const start = await datapoints();
    const whole = await call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 10 });
    if (!whole.ok) throw new Error(whole.error.message);
    const afterWhole = await datapoints();
    expect(afterWhole - start).toBe(whole.data.rows.length * columns.length);

    const one = await call('results:getRows', { accountId: 'local', executionId, startRow: 0, endRow: 10, columns: columns[0]! });
    if (!one.ok) throw new Error(one.error.message);
    expect(one.data.rows.length).toBe(whole.data.rows.length);
    expect((await datapoints()) - afterWhole).toBe(one.data.rows.length);
  });

  it('answers a month written wrong with the field that was wrong', async () => {
    const call = await newCore();
    const answer = await call('usage:report', { accountId: 'local', month: '2026-13' });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toContain('must be written YYYY-MM');
  });
});
