import { expect } from 'vitest';
import { splitWaitNote } from '../../../main/common/wait-note.ts';
import type { ContractError } from '../../../main/contract/index.ts';
import { errorWords } from '../../../renderer/src/lib/error-words.ts';
import { proofread, proofreadTogether } from '../../unit/words/proofread.ts';

// How a test reads a message main gives the app: rendered as the renderer shows it, under the
// heading of its code, with the advice beneath.

/** Our own words: whole sentences, shown as they are, and nothing said twice with the heading and advice. */
export function expectWellSaid(error: ContractError): void {
  const { heading, body } = errorWords(error);
  expect({ message: error.message, problems: proofreadTogether(heading, body) }).toEqual({ message: error.message, problems: [] });
  // main's sentences are shown as main wrote them, not quoted as if the service had said them
  expect(body.startsWith(splitWaitNote(error.message).words), body).toBe(true);
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
  const { heading, body } = errorWords(error);
  const ours = proofreadTogether(heading, body).filter((problem) => !problem.startsWith('body '));
  expect({ message: error.message, problems: ours }).toEqual({ message: error.message, problems: [] });
}
