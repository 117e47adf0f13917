import { fail, type Failure } from '../contract/index.ts';
import type { ServiceError } from './service-client/index.ts';

// How service-client errors and missing accounts cross the contract.

/** The kinds of the client are contract codes; the message is the service's own words. */
export function serviceFailure(error: ServiceError): Failure {
  return fail(error.kind, error.message, error.status === null ? undefined : { status: error.status });
}

export function noSuchAccount(accountId: string): Failure {
  return fail('not_found', `There is no account with the id ${JSON.stringify(accountId)}.`);
}

export function isFailure<T extends object>(value: T | Failure): value is Failure {
  return 'ok' in value && value.ok === false;
}
