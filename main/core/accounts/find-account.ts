import { fail, type Failure, type Result } from '../../contract/index.ts';
import { isFailure, noSuchAccount } from '../failures.ts';
import type { ServiceClient } from '../service-client/index.ts';
import type { AccountEntry, AccountRegistry, KeyProblem } from './registry.ts';

// An account looked up for a request: found and with a key, or the failure that crosses the contract.

/** An account with a key to talk to its service with. */
export type UsableAccount = AccountEntry & { client: ServiceClient };

export function findAccount(accounts: AccountRegistry, accountId: string): UsableAccount | Failure {
  const entry = accounts.get(accountId);
  if (entry === null) return noSuchAccount(accountId);
  if (entry.client === null) {
    const problem = keyProblemOf(entry);
    return fail(problem.code, problem.message);
  }
  return { ...entry, client: entry.client };
}

/**
 * A handler of a request about one account, called with that account when it exists and has a
 * key; otherwise the lookup's failure is the answer and the handler is not called.
 */
export function withAccount<R extends { accountId: string }, T>(
  accounts: AccountRegistry,
  handle: (account: UsableAccount, request: R) => Promise<Result<NoInfer<T>>>,
): (request: R) => Promise<Result<T>> {
  return async (request) => {
    const account = findAccount(accounts, request.accountId);
    return isFailure(account) ? account : handle(account, request);
  };
}

/** Why an account has no client to use. */
export function keyProblemOf(entry: AccountEntry): KeyProblem {
  return (
    entry.keyProblem ?? { code: 'bad_key', message: `The account “${entry.account.label}” has no API key. Enter one in its settings.` }
  );
}
