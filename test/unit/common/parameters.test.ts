import { describe, expect, it } from 'vitest';
import { PLACEHOLDER, placeholderNames } from '../../../main/common/parameters.ts';

describe('the {{name}} placeholder', () => {
  it('lists each placeholder once, spaces inside the braces allowed', () => {
    const sql = "select * from t where chain = '{{chain}}' and n > {{ min }} and c = '{{chain}}'";
    expect(placeholderNames(sql)).toEqual(['chain', 'min']);
  });

  it('takes no braces inside a name, and no empty name', () => {
    expect(placeholderNames('{{}} {{a{b}} {x} {{ok}}')).toEqual(['ok']);
  });

  it('matches the whole placeholder, braces and spaces, for replacing', () => {
    expect('a {{ x }} b'.replace(PLACEHOLDER, '?')).toBe('a ? b');
  });
});
