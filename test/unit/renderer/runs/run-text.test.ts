import { describe, expect, it } from 'vitest';
import { firstSqlLine, parameterText } from '../../../../renderer/src/runs/run-text.ts';

describe('the values a run was given, on one line', () => {
  it('name each value once, a list of them separated by commas', () => {
    expect(parameterText({ chain: 'base', min_usd: '25000' })).toBe('chain = base · min_usd = 25000');
    expect(parameterText({ tokens: ['a', 'b'] })).toBe('tokens = a, b');
    expect(parameterText({})).toBe('');
  });
});

describe('the first line of a run’s SQL', () => {
  it('skips blank lines and comments, and keeps a text of comments only as it is', () => {
    expect(firstSqlLine('\n-- daily volume\n  select day\nfrom t')).toBe('select day');
    expect(firstSqlLine('-- only a comment ')).toBe('-- only a comment');
  });
});
