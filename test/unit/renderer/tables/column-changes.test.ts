import { describe, expect, it } from 'vitest';
import { compareColumns, hasChanges, unforeseen } from '../../../../renderer/src/tables/column-changes.ts';

/** Columns written as "name type". */
const columns = (...specs: string[]) =>
  specs.map((spec) => {
    const [name, type] = spec.split(' ') as [string, string];
    return { name, type };
  });

const table = columns('day date', 'price double', 'token varchar');

describe('the column changes of a replacing file', () => {
  it('finds none when the names and types are the same, in any order and spelling of the type', () => {
    const changes = compareColumns(table, columns('token varchar', 'day DATE', 'price double'));
    expect(changes).toEqual({ added: [], removed: [], retyped: [] });
    expect(hasChanges(changes)).toBe(false);
  });

  it('names a column whose type changed, with both types', () => {
    const changes = compareColumns(table, columns('day date', 'price bigint', 'token varchar'));
    expect(changes).toEqual({ added: [], removed: [], retyped: [{ name: 'price', from: 'double', to: 'bigint' }] });
    expect(hasChanges(changes)).toBe(true);
  });

  it('lists the columns added and removed, a renamed one as both', () => {
    const changes = compareColumns(table, columns('day date', 'price_usd double', 'token varchar', 'volume bigint'));
    expect(changes.added).toEqual(columns('price_usd double', 'volume bigint'));
    expect(changes.removed).toEqual(columns('price double'));
    expect(changes.retyped).toEqual([]);
    expect(hasChanges(changes)).toBe(true);
  });

  it('counts a column removed alone as a change', () => {
    expect(hasChanges(compareColumns(table, columns('day date', 'price double')))).toBe(true);
  });

  it('matches names exactly: a column in other capitals is another column', () => {
    const changes = compareColumns(table, columns('day date', 'price double', 'Token varchar'));
    expect(changes.added).toEqual(columns('Token varchar'));
    expect(changes.removed).toEqual(columns('token varchar'));
  });

  it('tells the changes the service made that were not shown before sending', () => {
    const shown = compareColumns(table, columns('day date', 'price bigint', 'token varchar'));
    const made = compareColumns(table, columns('day date', 'price bigint', 'token bigint', 'note varchar'));
    expect(unforeseen(shown, made)).toEqual({
      added: [{ name: 'note', type: 'varchar' }],
      removed: [],
      retyped: [{ name: 'token', from: 'varchar', to: 'bigint' }],
    });
    expect(hasChanges(unforeseen(made, made))).toBe(false);
    const otherType = compareColumns(table, columns('day date', 'price varchar', 'token varchar'));
    expect(unforeseen(shown, otherType).retyped).toEqual([{ name: 'price', from: 'double', to: 'varchar' }]);
    expect(unforeseen(null, made)).toEqual(made);
  });
});
