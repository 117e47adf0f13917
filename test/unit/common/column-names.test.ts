import { describe, expect, it } from 'vitest';
import { badColumnName, columnNameKey, repeatedColumnName, startsWithLetter } from '../../../main/common/column-names.ts';

// The column-name rules the service refuses a table by and the app checks a file by.

describe('column names', () => {
  it('take a name that starts with a letter, in any script', () => {
    expect(['day', 'Price', 'ünits', '東京', 'a1'].every(startsWithLetter)).toBe(true);
    expect(badColumnName(['day', '1st', '#tag'])).toBe('1st');
    expect(badColumnName(['day', ' pad'])).toBe(' pad');
    expect(badColumnName(['day', 'price'])).toBeNull();
  });

  it('find a name given twice whatever the case of either, as the service compares them', () => {
    expect(repeatedColumnName(['name', 'Name'])).toBe('Name');
    expect(repeatedColumnName(['ÉTÉ', 'été'])).toBe('été');
    expect(repeatedColumnName(['a', 'b', 'a'])).toBe('a');
    expect(repeatedColumnName(['name', 'name_2'])).toBeNull();
    expect(columnNameKey('Name')).toBe(columnNameKey('NAME'));
  });
});
