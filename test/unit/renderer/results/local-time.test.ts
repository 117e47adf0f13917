import { describe, expect, it } from 'vitest';
import { localTimeOf } from '../../../../renderer/src/results/dates.ts';

describe("a timestamp's local time", () => {
  it('reads the service timestamp as UTC and writes it on the given clock', () => {
    const tokyo = { locale: 'en-GB', timeZone: 'Asia/Tokyo' };
    expect(localTimeOf('2024-01-01 20:30:00.000 UTC', tokyo)).toBe('2024-01-01 20:30:00.000 UTC is 2 Jan 2024, 05:30:00 your time');
    expect(localTimeOf('2024-07-01 00:00:05.123456 UTC', { locale: 'en-GB', timeZone: 'America/New_York' })).toBe(
      '2024-07-01 00:00:05.123456 UTC is 30 Jun 2024, 20:00:05 your time',
    );
  });

  it('leaves what is not such a timestamp', () => {
    for (const text of ['2024-01-01', '2024-01-01 20:30:00', 'infinity', '2024-13-01 00:00:00.000 UTC', 'tomorrow']) {
      expect(localTimeOf(text), text).toBeNull();
    }
  });
});
