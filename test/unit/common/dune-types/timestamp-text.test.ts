import { describe, expect, it } from 'vitest';
import { parseType, timestampDigits } from '../../../../main/common/dune-types/index.ts';

describe("a timestamp's digits after the second", () => {
  it("are its type's precision, as Trino writes them; microseconds for DuckDB's TIMESTAMP", () => {
    const digits = (type: string) => timestampDigits(parseType(type));
    expect(
      ['timestamp(3)', 'timestamp(6) with time zone', 'timestamp(9)', 'timestamp(0)', 'TIMESTAMP', 'TIMESTAMP_NS', 'TIMESTAMP_S'].map(
        digits,
      ),
    ).toEqual([3, 6, 9, 0, 6, 9, 0]);
  });
});
