import { describe, expect, it } from 'vitest';
import type { ScheduleNotify } from '../../../../main/contract/index.ts';
import { figureText, isNews } from '../../../../main/core/schedules/change-rule.ts';

// When a scheduled refresh is news: always, or only when its figure changed.

const always: ScheduleNotify = { when: 'always' };
const rows: ScheduleNotify = { when: 'changed', measure: { kind: 'rows' } };
const sumAbove: ScheduleNotify = { when: 'changed', measure: { kind: 'column', column: 'usd', figure: 'sum', threshold: 1000 } };

describe('the change rule', () => {
  it('notifies every completed run when told to notify always', () => {
    expect(isNews(always, true, 5, 5)).toBe(true);
    expect(isNews(always, true, null, null)).toBe(true);
  });

  it('notifies a changed row count only, the first run setting the count', () => {
    expect(isNews(rows, true, null, 10)).toBe(false);
    expect(isNews(rows, true, 10, 10)).toBe(false);
    expect(isNews(rows, true, 10, 11)).toBe(true);
    expect(isNews(rows, true, 10, 0)).toBe(true);
  });

  it('notifies when a column figure crosses the threshold, either way, not when it moves on one side', () => {
    expect(isNews(sumAbove, true, 900, 950)).toBe(false);
    expect(isNews(sumAbove, true, 900, 1000)).toBe(true);
    expect(isNews(sumAbove, true, 1500, 2500)).toBe(false);
    expect(isNews(sumAbove, true, 1500, 999.5)).toBe(true);
  });

  it('always tells of a failed run, and of a figure that could not be measured', () => {
    expect(isNews(rows, false, 10, null)).toBe(true);
    expect(isNews(sumAbove, true, 900, null)).toBe(true);
  });

  it('says the figure and its side of the threshold', () => {
    expect(figureText({ kind: 'rows' }, 1234)).toBe('1,234 rows');
    expect(figureText({ kind: 'column', column: 'usd', figure: 'max', threshold: 1000 }, 1200.5)).toBe(
      'max of usd is 1,200.5, at or above 1,000',
    );
  });
});
