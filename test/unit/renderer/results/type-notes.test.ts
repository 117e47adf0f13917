import { describe, expect, it } from 'vitest';
import { typeNotes } from '../../../../renderer/src/results/type-notes.ts';

const columns = [
  { name: 'amount', type: 'uint256', index: 0 },
  { name: 'shape', type: 'geometry', index: 1 },
  { name: 'to', type: 'varbinary', index: 2 },
  { name: 'odd', type: 'array(', index: 3 },
];

describe("the footer's notes on types", () => {
  it('names the columns of a type the app cannot read', () => {
    expect(typeNotes(columns, undefined)).toEqual({
      unknown: { text: '2 columns of an unknown type, kept as text', title: 'shape (geometry), odd (array()' },
      notFitting: null,
    });
    expect(typeNotes(columns.slice(0, 2), undefined).unknown?.text).toBe('1 column of an unknown type, kept as text');
    expect(typeNotes([columns[0]!], undefined).unknown).toBeNull();
  });

  it('counts the values that do not fit their declared type, once the cache has', () => {
    expect(typeNotes([columns[0]!], [3]).notFitting).toEqual({
      text: '3 values do not fit its column’s type, shown as received',
      title: 'amount (uint256): 3 values',
    });
    expect(typeNotes(columns, [1, 0, 2, 0]).notFitting?.text).toBe('3 values do not fit their columns’ types, shown as received');
    expect(typeNotes([columns[2]!], [0, 0, 1]).notFitting?.text).toBe('1 value does not fit its column’s type, shown as received');
    expect(typeNotes(columns, [0, 0, 0, 0]).notFitting).toBeNull();
  });
});
