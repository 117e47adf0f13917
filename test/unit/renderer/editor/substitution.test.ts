import { describe, expect, it } from 'vitest';
import { substitute } from '../../../../renderer/src/editor/substitution.ts';

describe('substitute', () => {
  it('puts each value in as text, a multi-select comma-joined, and leaves unknown placeholders', () => {
    const { sql } = substitute("select '{{chain}}', {{ n }} where x in ({{many}}) and {{unknown}}", {
      chain: 'base',
      n: '5',
      many: ['a', 'b'],
    });
    expect(sql).toBe("select 'base', 5 where x in (a,b) and {{unknown}}");
  });

  it('maps a position in the SQL that ran back to the editor, past values longer and shorter than their placeholders', () => {
    const text = "select {{n}},\n  '{{chain}}' as c,\n  nope";
    const run = substitute(text, { n: '123456789', chain: 'x' });
    expect(run.sql).toBe("select 123456789,\n  'x' as c,\n  nope");
    // `nope` is at 3:3 in both
    expect(run.toEditor({ line: 3, column: 3 })).toEqual({ line: 3, column: 3 });
    // `as` follows the value on line 2: 2:7 in the SQL, 2:15 in the editor
    expect(run.toEditor({ line: 2, column: 7 })).toEqual({ line: 2, column: 15 });
    // a comma after the longer value on line 1
    expect(run.toEditor({ line: 1, column: 17 })).toEqual({ line: 1, column: 13 });
  });

  it('says when the position falls inside a value put in', () => {
    const run = substitute('select {{n}} + 1', { n: 'oops' });
    expect(run.toEditor({ line: 1, column: 9 })).toBeNull();
  });

  it('maps from a selection that starts mid-line', () => {
    const run = substitute('select 1,\n  nope', {}, { line: 4, column: 10 });
    expect(run.toEditor({ line: 1, column: 8 })).toEqual({ line: 4, column: 17 });
    expect(run.toEditor({ line: 2, column: 3 })).toEqual({ line: 5, column: 3 });
    expect(run.toEditor({ line: 9, column: 1 })).toBeNull();
  });
});
