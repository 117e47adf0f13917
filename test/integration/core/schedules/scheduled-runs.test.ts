import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule, ScheduleNotice } from '../../../../main/contract/index.ts';
import type { Clock } from '../../../../main/core/schedules/scheduler.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';

// Schedules in a core over the embedded service: a due schedule starts an execution like the Run
// button's and measures its result; one whose query the service does not have stops, saying why.
// The clock is the test's, so a slot comes without waiting for it; its timers are real and short.

let harness: Harness;
let now = Date.parse('2026-05-01T10:00:00Z');
const clock: Clock = {
  now: () => new Date(now),
  setTimeout: (run) => setTimeout(run, 10),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
const notices: ScheduleNotice[] = [];
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  harness = await startHarness();
  const core = await harness.startCore({ keyVault: new KeyVault(memoryKeychain()), clock, onScheduleNotice: (n) => notices.push(n) });
  call = caller(core);
});

afterAll(async () => {
  await harness?.close();
});

/** The schedule once `done` says it is, read as the window reads it. */
async function scheduleWhen(id: string, done: (schedule: Schedule) => boolean): Promise<Schedule> {
  for (;;) {
    const listed = await call('schedules:list', {});
    if (!listed.ok) throw new Error(listed.error.message);
    const schedule = listed.data.schedules.find((s) => s.id === id);
    if (schedule && done(schedule)) return schedule;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('scheduled runs against the embedded service', () => {
  it('runs a due query as an execution with its values, and measures a column of its cached result', async () => {
    const created = await call('queries:create', {
      accountId: 'local',
      name: 'Scheduled sum',
      sql: 'SELECT x FROM (VALUES (1), (2), ({{last}})) AS t(x)',
      parameters: [{ key: 'last', type: 'number', value: '3' }],
    });
    if (!created.ok) throw new Error(created.error.message);
    const saved = await call('schedules:save', {
      accountId: 'local',
      queryId: created.data.id,
      queryName: 'Scheduled sum',
      parameters: { last: '10' },
      rule: { kind: 'minutes', every: 30 },
      notify: { when: 'changed', measure: { kind: 'column', column: 'x', figure: 'sum', threshold: 10 } },
    });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.data.nextRunAt).toBe('2026-05-01T10:30:00.000Z');

    now = Date.parse('2026-05-01T10:31:00Z');
    const ran = await scheduleWhen(saved.data.id, (s) => s.lastRun !== null && s.lastRun.outcome !== 'running');
    expect(ran.lastRun).toMatchObject({ outcome: 'completed', rows: 3, figure: 13 });
    expect(ran.lastRun?.message).toContain('sum of x is 13, at or above 10');
    expect(ran.nextRunAt).toBe('2026-05-01T11:01:00.000Z');

    // the run is the history's like any other, with the schedule's values
    const history = await call('executions:history', { text: 'Scheduled sum' });
    if (!history.ok) throw new Error(history.error.message);
    expect(history.data.entries).toEqual([
      expect.objectContaining({ executionId: ran.lastRun?.executionId, parameters: { last: '10' }, state: 'QUERY_STATE_COMPLETED' }),
    ]);
  });

  it('measures a max, and says which columns there are when the one named is not', async () => {
    const listed = await call('schedules:list', {});
    if (!listed.ok) throw new Error(listed.error.message);
    const queryId = listed.data.schedules[0]!.queryId;
    const base = {
      accountId: 'local',
      queryId,
      queryName: 'Scheduled sum',
      parameters: { last: '-4' },
      rule: { kind: 'hours', every: 1 },
    } as const;
    const max = await call('schedules:save', {
      ...base,
      notify: { when: 'changed', measure: { kind: 'column', column: 'x', figure: 'max', threshold: 0 } },
    });
    const missing = await call('schedules:save', {
      ...base,
      notify: { when: 'changed', measure: { kind: 'column', column: 'y', figure: 'min', threshold: 0 } },
    });
    if (!max.ok || !missing.ok) throw new Error('not saved');
    now += 2 * 3_600_000;
    const measuredMax = await scheduleWhen(max.data.id, (s) => s.lastRun !== null && s.lastRun.outcome !== 'running');
    expect(measuredMax.lastRun).toMatchObject({ outcome: 'completed', figure: 2 });
    const unmeasured = await scheduleWhen(missing.data.id, (s) => s.lastRun !== null && s.lastRun.outcome !== 'running');
    expect(unmeasured.lastRun).toMatchObject({ outcome: 'completed', figure: null });
    expect(unmeasured.lastRun?.message).toContain('The result has no column “y”; its columns are “x”.');
    // a figure that could not be measured is said, even on the first run
    expect(notices.filter((n) => n.scheduleId === missing.data.id)).toHaveLength(1);
    expect(notices.filter((n) => n.scheduleId === max.data.id)).toHaveLength(0);
    for (const id of [max.data.id, missing.data.id]) await call('schedules:delete', { id });
  });

  it('stops a schedule whose query the service does not have, says why, and keeps it', async () => {
    const saved = await call('schedules:save', {
      accountId: 'local',
      queryId: 987_654,
      queryName: 'Deleted query',
      parameters: {},
      rule: { kind: 'hours', every: 1 },
      notify: { when: 'always' },
    });
    if (!saved.ok) throw new Error(saved.error.message);
    now += 2 * 3_600_000;
    const stopped = await scheduleWhen(saved.data.id, (s) => s.stopped !== null);
    expect(stopped.stopped?.code).toBe('not_found');
    expect(stopped.stopped?.reason).toContain('The service has no query 987654');
    expect(stopped.nextRunAt).toBeNull();
    expect(notices.find((n) => n.scheduleId === saved.data.id)).toMatchObject({
      outcome: 'refused',
      title: 'Deleted query: schedule stopped',
    });

    // kept for the analyst to fix or delete
    const deleted = await call('schedules:delete', { id: saved.data.id });
    expect(deleted.ok).toBe(true);
    const listed = await call('schedules:list', {});
    expect(listed.ok && listed.data.schedules.map((s) => s.queryName)).toEqual(['Scheduled sum']);
  });

  it('refuses a schedule of an unknown account or with a malformed rule, saying which field', async () => {
    const unknown = await call('schedules:save', {
      accountId: 'nobody',
      queryId: 1,
      queryName: 'x',
      parameters: {},
      rule: { kind: 'daily', at: '09:00' },
      notify: { when: 'always' },
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const malformed = await call('schedules:save', {
      accountId: 'local',
      queryId: 1,
      queryName: 'x',
      parameters: {},
      rule: { kind: 'daily', at: '25:00' },
      notify: { when: 'always' },
    });
    expect(malformed).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(malformed.ok || malformed.error.message).toContain('HH:MM');
  });
});
