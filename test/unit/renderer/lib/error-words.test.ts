import { describe, expect, it } from 'vitest';
import { waitNote } from '../../../../main/common/wait-note.ts';
import { ERROR_CODES, type ContractError } from '../../../../main/contract/index.ts';
import { CONTEXT_HEADINGS, errorLine, errorWords, type ErrorContext } from '../../../../renderer/src/lib/error-words.ts';
import { proofread, proofreadTogether } from '../../words/proofread.ts';

// Every heading × every code × the shapes a message comes in, read as the user reads them.
const MESSAGES = {
  mainSentence: 'Nothing accepted the connection to http://127.0.0.1:9: it was refused (ECONNREFUSED).',
  serviceWords: 'invalid API Key',
  serviceCapitalWords: 'Query not found',
  serviceWordsWithWait: `too many requests${waitNote(30_000)}`,
  mainSentenceWithWait: `The service answered with HTTP 429 without saying why${waitNote(12_000)}.`,
  internal: 'An error inside the app stopped this action.',
  empty: '',
};
const CONTEXTS = [...(Object.keys(CONTEXT_HEADINGS) as ErrorContext[]), undefined];
const CODE_HEADINGS = new Set(ERROR_CODES.map((code) => errorWords({ code, message: '' }).heading));

describe('the words an error is shown in', () => {
  for (const context of CONTEXTS) {
    it(`read well under ${context ?? 'the code’s own heading'}, for every code and message`, () => {
      for (const code of ERROR_CODES) {
        for (const [shape, message] of Object.entries(MESSAGES)) {
          const error: ContractError = { code, message };
          const { heading, body } = errorWords(error, context);
          const line = errorLine(error, context ?? 'export');
          const where = `${context ?? '-'} / ${code} / ${shape}`;
          expect(body === '' ? proofread(heading) : proofreadTogether(heading, body), where).toEqual([]);
          expect(proofread(line), where).toEqual([]);
          if (context)
            expect(
              [...CODE_HEADINGS].filter((h) => line.includes(h)),
              where,
            ).toEqual([]);
        }
      }
    });
  }

  it('show the run that did not start under one heading, the cause beneath', () => {
    const words = errorWords({ code: 'unreachable', message: MESSAGES.mainSentence }, 'runStart');
    expect(words.heading).toBe('The run did not start.');
    expect(words.body.startsWith(MESSAGES.mainSentence)).toBe(true);
    expect(errorLine({ code: 'unreachable', message: MESSAGES.mainSentence }, 'runStart')).not.toContain('reached.:');
  });

  it('say a refused key once, quoting the service’s words as they came', () => {
    const { heading, body } = errorWords({ code: 'bad_key', message: 'invalid API Key' });
    expect(heading).toBe('The account’s API key cannot be used.');
    expect(body).toBe('The service said: “invalid API Key”. Enter the API key again in Accounts.');
    expect(errorWords({ code: 'bad_key', message: 'The key of “Work” is not in the keychain; enter it again.' }).body).not.toContain(
      'Accounts',
    );
  });

  it('turn the service’s wait into its own sentence, and do not advise a wait twice', () => {
    const { body } = errorWords({ code: 'rate_limited', message: MESSAGES.serviceWordsWithWait }, 'runStart');
    expect(body).toBe('The service said: “too many requests”. The service asks to wait 30 s before trying again.');
    const ours = errorWords({ code: 'rate_limited', message: MESSAGES.mainSentenceWithWait }, 'runStart');
    expect(ours.body).toBe('The service answered with HTTP 429 without saying why. The service asks to wait 12 s before trying again.');
  });

  it('leave out advice the why already gives, or that would be wrong for it', () => {
    const host = errorWords(
      {
        code: 'unreachable',
        message: 'This window is not connected to its host right now. It reconnects by itself: try again in a moment.',
      },
      'runStart',
    );
    expect(host.body).not.toContain('Accounts');
    const checked = errorWords({ code: 'timeout', message: 'The service did not answer within 30 s. Check the base URL and the network.' });
    expect(checked.body).toBe('The service did not answer within 30 s. Check the base URL and the network.');
    expect(errorWords({ code: 'not_found', message: 'There is no active account: add one in Accounts.' }).body).toBe(
      'There is no active account: add one in Accounts.',
    );
    expect(errorWords({ code: 'not_found', message: 'Query #12 was not found.' }).body).toContain('Reload the list');
  });

  it('take a plain reason under a context, with no advice', () => {
    expect(errorLine('Document is not focused.', 'chartCopy')).toBe('The chart could not be copied. Document is not focused.');
    expect(errorLine('write permission denied', 'chartCopy')).toBe(
      'The chart could not be copied. The reason given: “write permission denied”.',
    );
  });
});
