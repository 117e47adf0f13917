import { parseJsonExact } from '../../common/dune-types/index.ts';
import { waitNote } from '../../common/wait-note.ts';
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

/** `refusedWaitMs`: a wait the transport would not make, said in the message. */
export function httpFailure(response: RefusedResponse, refusedWaitMs: number | null, now: number = Date.now()): Failure<ServiceError> {
  const note = refusedWaitMs === null ? '' : waitNote(refusedWaitMs);
  const refused = failure(
    kindForStatus(response.status),
    errorMessage(response.status, parseJson(response.text), response.text, note),
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
function errorMessage(status: number, body: unknown, text: string, note: string): string {
  if (isObject(body) && typeof body.error === 'string' && body.error.trim() !== '') return body.error + note;
  const snippet = text.trim().replace(/\s+/g, ' ').slice(0, 200);
  if (snippet === '') return `The service answered with HTTP ${status} without saying why${note}.`;
  return `The service answered with HTTP ${status} without saying why${note}; its answer began: “${snippet}”.`;
}
