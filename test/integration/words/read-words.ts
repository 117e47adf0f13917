import { expect } from 'vitest';
import type { ContractError } from '../../../main/contract/index.ts';
import { errorTitle } from '../../../renderer/src/lib/errors.ts';
import { proofread, proofreadTogether } from '../../unit/words/proofread.ts';

// How a test reads a message main gives the app: under the heading the renderer shows for its code
// (or the heading the caller's screen gives, when it has one of its own).

/** Our own words: whole sentences, and nothing the heading above them says already. */
export function expectWellSaid(error: ContractError, heading = errorTitle(error)): void {
  expect({ message: error.message, problems: proofreadTogether(heading, error.message) }).toEqual({ message: error.message, problems: [] });
}

/** A text with no heading of its own (a state's reason, a progress line). */
export function expectSentences(text: string): void {
  expect({ text, problems: proofread(text) }).toEqual({ text, problems: [] });
}

/**
 * The service's own words, kept exact: they need not be our sentences, but nothing of ours beside
 * them may say again what the heading says.
 */
export function expectServiceWords(error: ContractError, words: string): void {
  expect(error.message).toContain(words);
  const ours = proofreadTogether(errorTitle(error), error.message).filter((problem) => !problem.startsWith('body '));
  expect({ message: error.message, problems: ours }).toEqual({ message: error.message, problems: [] });
}
