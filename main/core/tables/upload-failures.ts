import { fail, type ErrorCode, type Failure, type UploadLeft } from '../../contract/index.ts';
import { serviceFailure } from '../failures.ts';
import type { ServiceError } from '../service-client/index.ts';

// How an upload's failures are said: each says whether sending again can help (`details.retryable`)
// and what the upload left on the service (`details.left`), so the form says what became of a table
// it replaces.

/**
 * The service's failure, with `note` after it: a sentence of its own after ours, in brackets after
 * the service's own words. A refusal of the service stays one when sent again; no answer, a time-out
 * or an overload may not.
 */
export function serviceRefusal(error: ServiceError, note: string, left: UploadLeft): Failure {
  const { message, code } = serviceFailure(error).error;
  const status = error.status;
  const retryable = status === null || status >= 500 || status === 408 || status === 429;
  const noted =
    note === '' ? message : /[.!?]$/.test(message) ? `${message} ${note[0]!.toUpperCase()}${note.slice(1)}.` : `${message} (${note})`;
  return fail(code, noted, { status, retryable, left });
}

/** A refusal of ours, which sending again does not change. */
export function ownRefusal(code: ErrorCode, message: string, left: UploadLeft): Failure {
  return fail(code, message, { retryable: false, left });
}

/** No answer, or a gateway's: the service may have acted. Any answer of its own means nothing was written. */
export function isAmbiguous(error: ServiceError): boolean {
  return error.status === null || error.status === 502 || error.status === 504;
}
