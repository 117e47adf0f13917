import { describe, expect, it } from 'vitest';
import { parameterText } from '../../../../renderer/src/runs/parameter-text.ts';

describe('the values a run was given, on one line', () => {
  it('name each value once, a list of them separated by commas', () => {
    expect(parameterText({ chain: 'base', min_usd: '25000' })).toBe('chain = base · min_usd = 25000');
    expect(parameterText({ tokens: ['a', 'b'] })).toBe('tokens = a, b');
    expect(parameterText({})).toBe('');
  });
});
