import { describe, expect, it } from 'vitest';
import { hasResult, isPartialRefusalText, isTerminalState, PARTIAL_REFUSAL } from '../../../main/common/dune-states.ts';

describe("Dune's execution states", () => {
  it('ends an execution in the five terminal states only', () => {
    for (const state of [
      'QUERY_STATE_COMPLETED',
      'QUERY_STATE_COMPLETED_PARTIAL',
      'QUERY_STATE_FAILED',
      'QUERY_STATE_CANCELLED',
      'QUERY_STATE_EXPIRED',
    ]) {
      expect(isTerminalState(state), state).toBe(true);
    }
    for (const state of ['QUERY_STATE_PENDING', 'QUERY_STATE_EXECUTING', 'QUERY_STATE_CANCELED', 'QUERY_STATE_SOMETHING_NEW']) {
      expect(isTerminalState(state), state).toBe(false);
    }
  });

  it('has a result when completed, partial included, and in no other state', () => {
    expect(hasResult('QUERY_STATE_COMPLETED')).toBe(true);
    expect(hasResult('QUERY_STATE_COMPLETED_PARTIAL')).toBe(true);
    for (const state of [
      'QUERY_STATE_PENDING',
      'QUERY_STATE_EXECUTING',
      'QUERY_STATE_FAILED',
      'QUERY_STATE_CANCELLED',
      'QUERY_STATE_EXPIRED',
      'QUERY_STATE_NEW',
    ]) {
      expect(hasResult(state), state).toBe(false);
    }
  });

  it("knows Dune's refusal of a partial result read without allowing it, in any case", () => {
    expect(isPartialRefusalText(PARTIAL_REFUSAL)).toBe(true);
    expect(isPartialRefusalText('this is a PARTIAL RESULT')).toBe(true);
    expect(isPartialRefusalText('sample_count must be a positive integer')).toBe(false);
  });
});
