import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateCost, NO_RATES } from '../../../../main/contract/index.ts';
import type { UsageEvent } from '../../../../main/core/usage/usage-event.ts';
import { openUsageLog } from '../../../../main/core/usage/usage-log.ts';
import { UsageSums } from '../../../../main/core/usage/usage-report.ts';

// The usage page's figures: days and months in the computer's local time (here New York, five
// hours behind UTC in winter), queries by their datapoints, and the cost the rates give.
process.env.TZ = 'America/New_York';

let sequence = 0;
function event(kind: UsageEvent['kind'], at: string, fields: Partial<UsageEvent> = {}): UsageEvent {
  return { id: String(sequence++), kind, accountId: 'local', executionId: 'e1', queryId: 7, at, datapoints: 0, bytes: 0, ...fields };
}

const names = (queryId: number) => (queryId === 7 ? 'Daily volume' : null);
const REQUEST = { accountId: 'local', rates: NO_RATES, skipped: 0, months: [], nameOf: names, now: new Date('2026-03-10T12:00:00.000Z') };

function report(events: UsageEvent[], month: string, rates = NO_RATES) {
  const sums = new UsageSums();
  for (const added of events) sums.add(added);
  return sums.report({ ...REQUEST, month, rates });
}

describe('the usage report', () => {
  it('puts an event in the local day and month it happened in, not the UTC one', () => {
    const events = [
      // 1 March 03:00 UTC is still 28 February in New York
      event('execution', '2026-03-01T03:00:00.000Z'),
      event('read', '2026-03-01T03:00:01.000Z', { datapoints: 100, bytes: 2_000 }),
      // 1 April 02:00 UTC is 31 March in New York (summer time: four hours behind)
      event('execution', '2026-04-01T02:00:00.000Z'),
      event('read', '2026-03-15T15:00:00.000Z', { datapoints: 50 }),
    ];
    const march = report(events, '2026-03');
    expect(march.byDay.map((d) => [d.day, d.executions, d.datapoints])).toEqual([
      ['2026-03-15', 0, 50],
      ['2026-03-31', 1, 0],
    ]);
    expect(march.total).toEqual({ executions: 1, datapoints: 50, bytes: 0, cost: null });
    const february = report(events, '2026-02');
    expect(february.byDay).toEqual([{ day: '2026-02-28', executions: 1, datapoints: 100, bytes: 2_000, cost: null }]);
    expect(march.months).toEqual(['2026-03', '2026-02']);
  });

  it('adds up by query, most datapoints first, a read without a query taking its execution’s', () => {
    const events = [
      event('execution', '2026-03-02T12:00:00.000Z', { executionId: 'a', queryId: 7 }),
      event('read', '2026-03-02T12:01:00.000Z', { executionId: 'a', queryId: null, datapoints: 10 }),
      event('download', '2026-03-02T12:02:00.000Z', { executionId: 'a', queryId: null, datapoints: 30, bytes: 500 }),
      event('execution', '2026-03-03T12:00:00.000Z', { executionId: 'b', queryId: 0 }),
      event('read', '2026-03-03T12:01:00.000Z', { executionId: 'b', queryId: 0, datapoints: 1_000 }),
      event('read', '2026-03-03T12:02:00.000Z', { executionId: 'c', queryId: 12, datapoints: 5 }),
      event('read', '2026-03-03T12:03:00.000Z', { accountId: 'work', executionId: 'd', datapoints: 99 }),
    ];
    const march = report(events, '2026-03');
    expect(march.byQuery.map((q) => [q.queryId, q.name, q.executions, q.datapoints, q.bytes])).toEqual([
      [0, 'SQL of no saved query', 1, 1_000, 0],
      [7, 'Daily volume', 1, 40, 500],
      [12, 'Query #12', 0, 5, 0],
    ]);
    expect(march.total.datapoints).toBe(1_045);
  });

  it('lists the current month even without usage, and one asked for that holds none', () => {
    const empty = report([], '2025-12');
    expect(empty.months).toEqual(['2026-03', '2025-12']);
    expect(empty.total).toEqual({ executions: 0, datapoints: 0, bytes: 0, cost: null });
    expect(empty.byDay).toEqual([]);
  });

  it('prices days, queries and the total with the account’s rates', () => {
    const rates = { perDatapoint: 0.001, perExecution: 2, unit: 'credits' };
    const events = [event('execution', '2026-03-02T12:00:00.000Z'), event('read', '2026-03-02T12:01:00.000Z', { datapoints: 3_000 })];
    const march = report(events, '2026-03', rates);
    expect(march.total.cost).toBeCloseTo(5);
    expect(march.byDay[0]!.cost).toBeCloseTo(5);
    expect(march.byQuery[0]!.cost).toBeCloseTo(5);
  });
});

describe('the cost estimate', () => {
  it('is none without rates, and counts only the rates given', () => {
    expect(estimateCost(NO_RATES, { datapoints: 1_000_000, executions: 3 })).toBeNull();
    expect(estimateCost({ perDatapoint: null, perExecution: 10, unit: 'credits' }, { datapoints: 1_000_000, executions: 3 })).toBe(30);
    expect(estimateCost({ perDatapoint: 0.0001, perExecution: null, unit: '$' }, { datapoints: 1_000_000, executions: 3 })).toBeCloseTo(
      100,
    );
  });
});

/** The report of a month's file of the record, for the account 'local'. */
function monthReport(log: ReturnType<typeof openUsageLog>, month: string) {
  const { sums, skipped } = log.month(month);
  return sums.report({ ...REQUEST, month, skipped });
}

describe('the usage record', () => {
  it('skips a line whose time is not written as the app writes it, and counts it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-usage-'));
    try {
      const line = (at: string) => JSON.stringify({ ...event('read', at), datapoints: 5 });
      writeFileSync(join(dir, 'usage-2026-03.jsonl'), `${line('2026-03-02T12:00:00.000Z')}\n${line('March 2nd')}\n`);
      const log = openUsageLog(dir);
      const march = monthReport(log, '2026-03');
      expect(march.skipped).toBe(1);
      expect(march.byDay.map((d) => [d.day, d.datapoints])).toEqual([['2026-03-02', 5]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes each event to the file of its local month, read when that month is asked for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-usage-'));
    try {
      // 1 April 02:00 UTC is 31 March in New York
      let clock = new Date('2026-04-01T02:00:00.000Z');
      const log = openUsageLog(dir, () => clock);
      log.record({ kind: 'execution', accountId: 'local', executionId: 'a', queryId: 7, datapoints: 0, bytes: 0 });
      clock = new Date('2026-04-01T05:00:00.000Z');
      log.record({ kind: 'read', accountId: 'local', executionId: 'a', queryId: 7, datapoints: 9, bytes: 90 });
      expect(log.months().sort()).toEqual(['2026-03', '2026-04']);
      const again = openUsageLog(dir);
      expect(monthReport(again, '2026-03').total).toMatchObject({ executions: 1, datapoints: 0 });
      expect(monthReport(again, '2026-04').total).toMatchObject({ executions: 0, datapoints: 9, bytes: 90 });
      expect(monthReport(again, '2026-05').byDay).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds an event written after its month was read to that month’s figures, and forgets an account', () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-usage-'));
    try {
      const log = openUsageLog(dir, () => new Date('2026-03-02T12:00:00.000Z'));
      log.record({ kind: 'execution', accountId: 'local', executionId: 'a', queryId: 7, datapoints: 0, bytes: 0 });
      expect(monthReport(log, '2026-03').total).toMatchObject({ executions: 1, datapoints: 0 });
      log.record({ kind: 'read', accountId: 'local', executionId: 'a', queryId: null, datapoints: 12, bytes: 30 });
      log.record({ kind: 'read', accountId: 'work', executionId: 'b', queryId: 3, datapoints: 99, bytes: 0 });
      const march = monthReport(log, '2026-03');
      expect(march.byQuery.map((q) => [q.queryId, q.executions, q.datapoints])).toEqual([[7, 1, 12]]);
      log.forgetAccount('local');
      expect(monthReport(log, '2026-03').total).toMatchObject({ executions: 0, datapoints: 0 });
      expect(monthReport(openUsageLog(dir), '2026-03').total).toMatchObject({ executions: 0, datapoints: 0 });
      const work = openUsageLog(dir)
        .month('2026-03')
        .sums.report({ ...REQUEST, accountId: 'work', month: '2026-03' });
      expect(work.total.datapoints).toBe(99);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
