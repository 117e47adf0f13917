import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDue, nextRunAfter } from '../../../../main/core/schedules/next-run.ts';

// The next slot of each rule, by local time: Berlin's clock, which changes twice a year.

const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** A local time in Berlin, as the analyst reads the clock. */
const local = (year: number, month: number, day: number, hours: number, minutes: number) => new Date(year, month - 1, day, hours, minutes);

describe('the next run of a schedule', () => {
  it('counts every N minutes and every N hours from the moment given', () => {
    const from = new Date('2026-05-01T10:07:30Z');
    expect(nextRunAfter({ kind: 'minutes', every: 15 }, from).toISOString()).toBe('2026-05-01T10:22:30.000Z');
    expect(nextRunAfter({ kind: 'hours', every: 6 }, from).toISOString()).toBe('2026-05-01T16:07:30.000Z');
  });

  it('runs daily at the local time: later today, else tomorrow, never at the moment itself', () => {
    expect(nextRunAfter({ kind: 'daily', at: '09:30' }, local(2026, 5, 1, 8, 0))).toEqual(local(2026, 5, 1, 9, 30));
    expect(nextRunAfter({ kind: 'daily', at: '09:30' }, local(2026, 5, 1, 9, 30))).toEqual(local(2026, 5, 2, 9, 30));
    expect(nextRunAfter({ kind: 'daily', at: '09:30' }, local(2026, 5, 1, 11, 0))).toEqual(local(2026, 5, 2, 9, 30));
  });

  it('crosses midnight and the end of a month and a year', () => {
    expect(nextRunAfter({ kind: 'daily', at: '00:00' }, local(2026, 12, 31, 23, 59))).toEqual(local(2027, 1, 1, 0, 0));
    expect(nextRunAfter({ kind: 'daily', at: '23:45' }, local(2026, 4, 30, 23, 50))).toEqual(local(2026, 5, 1, 23, 45));
  });

  it('keeps the wall-clock time across daylight saving time, 23 and 25 hours apart', () => {
    // 29 March 2026: 02:00 becomes 03:00 in Berlin
    const beforeSpring = nextRunAfter({ kind: 'daily', at: '09:00' }, local(2026, 3, 28, 10, 0));
    expect(beforeSpring.toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(beforeSpring.getTime() - local(2026, 3, 28, 9, 0).getTime()).toBe(23 * 3_600_000);
    // 25 October 2026: 03:00 becomes 02:00
    const beforeAutumn = nextRunAfter({ kind: 'daily', at: '09:00' }, local(2026, 10, 24, 10, 0));
    expect(beforeAutumn.toISOString()).toBe('2026-10-25T08:00:00.000Z');
    expect(beforeAutumn.getTime() - local(2026, 10, 24, 9, 0).getTime()).toBe(25 * 3_600_000);
  });

  it('runs a time the spring change skips an hour later that day, and a repeated autumn time once', () => {
    expect(nextRunAfter({ kind: 'daily', at: '02:30' }, local(2026, 3, 29, 0, 0)).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    const first = nextRunAfter({ kind: 'daily', at: '02:30' }, local(2026, 10, 25, 0, 0));
    expect(first.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // after the first 02:30, the repeated one is not another slot: the next is the day after
    expect(nextRunAfter({ kind: 'daily', at: '02:30' }, first).toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });

  it('is due at its slot or any time after it, a slot missed included', () => {
    const slot = '2026-05-01T10:00:00.000Z';
    expect(isDue(slot, new Date('2026-05-01T09:59:59Z'))).toBe(false);
    expect(isDue(slot, new Date(slot))).toBe(true);
    expect(isDue(slot, new Date('2026-05-09T00:00:00Z'))).toBe(true);
    expect(isDue(null, new Date(slot))).toBe(false);
  });
});
