import { describe, expect, it } from 'vitest';
import { TypeInference } from '../../../../renderer/src/tables/infer-types.ts';

// The upload form's types, which are the table's: by the service's rule (its agreement with the
// service's SQL is tested in test/integration/common/csv-column-types.test.ts).

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

  it('types as the service does what it once read otherwise', () => {
    expect(
      infer([['12345678901234567890123', '+5', '2024-01-02T03:04:05+02:00', '0.12345678901234567890', '2024-01-02T03:04:05.1234567']]),
    ).toEqual(['int256', 'varchar', 'timestamp', 'varchar', 'varchar']);
  });

  it('keeps as text what a conversion would change or refuse', () => {
    expect(infer([['007', '1e4x', '0x1f', ' 5']])).toEqual(['varchar', 'varchar', 'varchar', 'varchar']);
  });

  it('takes the narrowest wide integer that holds every value', () => {
    const past127 = String(2n ** 127n);
    expect(
      infer([
        [past127, past127, '9223372036854775808'],
        ['0', '-1', '-5'],
      ]),
    ).toEqual(['uint256', 'int256', 'int256']);
  });

  it('reads a column with no value as text', () => {
    expect(infer([['', 'a']])).toEqual(['varchar', 'varchar']);
  });
});
