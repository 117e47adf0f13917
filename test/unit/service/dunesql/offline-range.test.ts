import { describe, expect, it } from 'vitest';
import { explainOfflineRange } from '../../../../main/service/dunesql/offline-range.ts';

describe('explainOfflineRange', () => {
  it("says what DuckDB's 128-bit overflow means for uint256 and int256, on the error's own line", () => {
    const message =
      "Conversion Error: Could not convert string '340282366920938463463374607431768211456' to UINT128\n\nLINE 1: SELECT uint256 '34...";
    expect(explainOfflineRange(message)).toBe(
      "Conversion Error: Could not convert string '340282366920938463463374607431768211456' to UINT128 " +
        "(offline, uint256 holds 0 to 2^128 - 1, and int256 and sums of uint256 -2^127 to 2^127 - 1)\n\nLINE 1: SELECT uint256 '34...",
    );
  });

  it('leaves other errors that name a 128-bit type as they are', () => {
    const message = "Binder Error: No function matches the given name and argument types 'lower(HUGEINT)'";
    expect(explainOfflineRange(message)).toBe(message);
  });
});
