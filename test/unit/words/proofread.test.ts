import { describe, expect, it } from 'vitest';
import { proofread, proofreadTogether } from './proofread.ts';

describe('the proofreading rules', () => {
  it('pass whole sentences said once', () => {
    expect(proofread('The run did not start. Check the network, then run again.')).toEqual([]);
    expect(proofread('Rows 1–500 of 1,000 (“sorted”).')).toEqual([]);
    expect(proofread('A null value is shown as an empty cell.')).toEqual([]);
  });

  it('find the slips the issue names, and their kin', () => {
    expect(proofread('The service could not be reached.: the run did not start.')).toContain('ends a sentence and goes on with a colon');
    expect(proofread('the run failed.')).toContain('does not start with a capital');
    expect(proofread('The run failed')).toContain('does not end a sentence');
    expect(proofread('The run failed..')).toContain('doubles its punctuation');
    expect(proofread('The run failed .')).toContain('has a space before punctuation');
    expect(proofread('The run  failed.')).toContain('has a double space');
    expect(proofread('The run failed: undefined.')).toContain('shows a program value');
    expect(proofread('The the run failed.')).toContain('repeats a word');
    expect(proofread('Could not reach the service: ECONNREFUSED.')).toContain('shows a program code without words');
    expect(proofread('The execution has no result (state QUERY_STATE_EXECUTING).')).toContain('shows a program code without words');
    expect(proofread('The connection was refused (ECONNREFUSED).')).toEqual([]);
    expect(proofread('The key was refused. The key was refused.')).toEqual(['says twice: the key was refused']);
  });

  it('find a heading and its text saying the same thing', () => {
    expect(proofreadTogether('The service refused the API key.', 'It answered: invalid API Key.')).toEqual([]);
    expect(proofreadTogether('The service refused the API key.', 'The service refused this API key: invalid API Key.')).toEqual([
      'title and body both say "service refused api"',
    ]);
  });
});
