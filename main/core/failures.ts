import { fail, type ContractError } from '../contract/index.ts';
import type { AccountEntry, AccountRegistry, KeyProblem } from './accounts/registry.ts';
import type { ServiceClient, ServiceError } from './service-client/index.ts';

// How service-client errors and unusable accounts cross the contract.

export type Failure = { ok: false; error: ContractError };

/** An account with a key to talk to its service with. */
export type UsableAccount = AccountEntry & { client: ServiceClient };

/** The kinds of the client are contract codes; the message is the service's own words. */
export function serviceFailure(error: ServiceError): Failure {
  return fail(error.kind, error.message, error.status === null ? undefined : { status: error.status });
}

export function noSuchAccount(accountId: string): Failure {
  return fail('not_found', `There is no account with the id ${JSON.stringify(accountId)}.`);
}

export function findAccount(accounts: AccountRegistry, accountId: string): UsableAccount | Failure {
  const entry = accounts.get(accountId);
  if (entry === null) return noSuchAccount(accountId);
  if (entry.client === null) {
    const problem = keyProblemOf(entry);
    return fail(problem.code, problem.message);
  }
  return { ...entry, client: entry.client };
}

export function isFailure<T extends object>(value: T | Failure): value is Failure {
  return 'ok' in value && value.ok === false;
}

/** Why an account has no client to use. */
export function keyProblemOf(entry: AccountEntry): KeyProblem {
  return entry.keyProblem ?? { code: 'bad_key', message: `The account “${entry.account.label}” has no API key. Enter one in its settings.` };
}
