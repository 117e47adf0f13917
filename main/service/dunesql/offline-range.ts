// uint256 and int256 are DuckDB's 128-bit integers offline, and DuckDB's errors for a value past
// them name those (UINT128, HUGEINT): the error says what that means for a DuneSQL type.
const PAST_128_BITS = /^(?=.*\b(?:UINT128|INT128|UHUGEINT|HUGEINT)\b)(?=.*(?:overflow|out of range|could not convert|can't be cast)).*$/im;
const NOTE = 'offline, uint256 holds 0 to 2^128 - 1, and int256 and sums of uint256 -2^127 to 2^127 - 1';

/** DuckDB's error message, with what its 128-bit limit means for uint256 and int256 where it reached it. */
export function explainOfflineRange(message: string): string {
  return message.replace(PAST_128_BITS, (line) => `${line} (${NOTE})`);
}
