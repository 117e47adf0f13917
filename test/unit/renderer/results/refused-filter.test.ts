import { describe, expect, it } from 'vitest';
import { refusedFilter } from '../../../../renderer/src/results/check-filters.ts';

// A refusal of the request's filters, read as a problem of the text the user typed.

const refusal = (message: string, details?: unknown) => ({
  code: 'bad_request' as const,
  message,
  ...(details === undefined ? {} : { details }),
});

describe('a refused filter', () => {
  it('keeps the position when the typed filter was sent alone', () => {
    const error = refusal("filters: n holds numbers (integer); 'x' is not a number at position 5", { part: 'filters', position: 5 });
    expect(refusedFilter(error, "n > 'x'", '')).toEqual({ message: error.message, position: 5 });
  });

  it('moves the position back over the parenthesis that joins it to the column filters', () => {
    const error = refusal('filters: … at position 6', { part: 'filters', position: 6 });
    expect(refusedFilter(error, "n > 'x'", "chain = 'base'")?.position).toBe(5);
  });

  it('is not the typed text when the position falls on the column filters', () => {
    const error = refusal('filters: … at position 14', { part: 'filters', position: 14 });
    expect(refusedFilter(error, "n > 'x'", "chain = 'base'")).toBeNull();
  });

  it('has no position when the refusal named none', () => {
    const error = refusal('filters: Conversion Error: date field value out of range');
    expect(refusedFilter(error, "day = '2024-13-45'", '')).toEqual({ message: error.message, position: null });
  });

  it('leaves other parts and other failures to the grid', () => {
    expect(refusedFilter(refusal('sort_by: unknown column "x" at position 1', { part: 'sort_by', position: 1 }), 'n > 1', '')).toBeNull();
    expect(refusedFilter({ code: 'unreachable', message: 'filters: no' }, 'n > 1', '')).toBeNull();
  });
});
