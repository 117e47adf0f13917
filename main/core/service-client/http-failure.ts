import { parseJsonExact } from '../../common/dune-types/index.ts';
import { secondsText, waitNote } from '../../common/wait-note.ts';
import type { Failure } from '../../contract/index.ts';
import { failure, kindForStatus, type ServiceError } from './errors.ts';
import { retryAfterMs } from './retry-policy.ts';
import { isObject } from './wire-read.ts';

// A response the service refused, as the failure value the app acts on: the service's words, the
// kind for its status, and the wait it asked for, so that a caller which tries again later (the
// watcher, a download) waits as long as the service said rather than its own guess.

/** What is read of a refused response; its headers looked up by name in any case. */
export interface RefusedResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/** `refusedWaitMs`: a wait the transport would not make, said in the message unless the service said it. */
export function httpFailure(response: RefusedResponse, refusedWaitMs: number | null, now: number = Date.now()): Failure<ServiceError> {
  const refused = failure(
    kindForStatus(response.status),
    errorMessage(response.status, parseJson(response.text), response.text, refusedWaitMs),
    response.status,
  );
  const wait = retryAfterMs(response.headers.get('retry-after'), now);
  if (wait !== null) refused.error.retryAfterMs = wait;
  return refused;
}

// Dune sends uint256 amounts as JSON numbers: none may be rounded through a double on the way in.
export function parseJson(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
}

/** The service's own words when it gave some, kept exact; else what it answered, in ours. */
function errorMessage(status: number, body: unknown, text: string, waitMs: number | null): string {
  if (isObject(body) && typeof body.error === 'string' && body.error.trim() !== '') {
    return waitMs === null || namesWait(body.error, waitMs) ? body.error : body.error + waitNote(waitMs);
  }
  const note = waitMs === null ? '' : waitNote(waitMs);
  const snippet = text.trim().replace(/\s+/g, ' ').slice(0, 200);
  if (snippet === '') return `The service answered with HTTP ${status} without saying why${note}.`;
  return `The service answered with HTTP ${status} without saying why${note}; its answer began: “${snippet}”.`;
}

/**
 * Whether the service's words already give the wait its Retry-After asks for, as seconds or as
 * whole minutes ("retry in 60 s", "try again in 1 minute"): the note would say it twice. Words that
 * give another wait get the note, so that the one the header asks for is still said.
 */
function namesWait(words: string, waitMs: number): boolean {
  // the count the note would give
  const seconds = Number.parseInt(secondsText(waitMs), 10);
  const lengths = [`${seconds}\\s*(?:s|secs?|seconds?)`];
  if (seconds % 60 === 0) lengths.push(`${seconds / 60}\\s*(?:mins?|minutes?)`);
  return new RegExp(`(?<![\\d.])(?:${lengths.join('|')})(?![\\p{L}\\d])`, 'iu').test(words);
}
