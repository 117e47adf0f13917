import { describe, expect, it } from 'vitest';
import { TypeInference } from '../../../../renderer/src/tables/infer-types.ts';

describe('column types from the values', () => {
  function infer(rows: string[][]): string[] {
    const inference = new TypeInference();
    for (const row of rows) inference.observe(row);
    return inference.types(rows[0]!.length);
  }

  it('takes the narrowest type every non-empty value fits', () => {
    expect(
      infer([
        ['1', '1.5', 'true', '2024-01-02', '2024-01-02 03:04:05', 'x'],
        ['-20', '3', 'FALSE', '2024-12-31', '2024-01-02T03:04', 'y'],
        ['', '', '', '', '', ''],
      ]),
    ).toEqual(['bigint', 'double', 'boolean', 'date', 'timestamp', 'varchar']);
  });

  it('keeps as text what a conversion would change or refuse', () => {
    expect(infer([['007', '1e4x', '2024-01-02T03:04:05Z', '99999999999999999999']])).toEqual(['varchar', 'varchar', 'varchar', 'double']);
  });

  it('reads a column with no value as text', () => {
    expect(infer([['', 'a']])).toEqual(['varchar', 'varchar']);
  });
});
