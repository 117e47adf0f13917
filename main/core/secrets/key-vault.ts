import { fail, ok, type Result } from '../../contract/index.ts';
import { clause, thrownText } from '../words.ts';
import type { KeychainBackend } from './os-keychain.ts';

export type KeychainStatus = { available: true } | { available: false; reason: string };

/**
 * Where API keys live: the OS keychain, or, only when the user agreed because no keychain is
 * reachable, this process's memory for the session. Never a file.
 */
export class KeyVault {
  #keychain: KeychainBackend;
  #sessionOnly = new Map<string, string>();
  #status: Promise<KeychainStatus> | null = null;

  constructor(keychain: KeychainBackend) {
    this.#keychain = keychain;
  }

  /** Probed once: a read of an entry that need not exist tells whether the keychain answers. */
  status(): Promise<KeychainStatus> {
    this.#status ??= this.#keychain.get('querydesk-probe').then(
      (): KeychainStatus => ({ available: true }),
      (error: unknown): KeychainStatus => ({ available: false, reason: keychainProblem('The system keychain did not answer', error) }),
    );
    return this.#status;
  }

  async save(accountId: string, key: string, options: { sessionOnly?: boolean } = {}): Promise<Result<{ sessionOnly: boolean }>> {
    if (options.sessionOnly) {
      this.#sessionOnly.set(accountId, key);
      await this.#forgetInKeychain(accountId);
      return ok({ sessionOnly: true });
    }
    try {
      await this.#keychain.set(accountId, key);
      this.#sessionOnly.delete(accountId);
      return ok({ sessionOnly: false });
    } catch (error) {
      return fail('keychain_unavailable', keychainProblem('The API key was not saved, since the system keychain did not answer', error));
    }
  }

  /** `whose` names the key in a failure's message, as "The API key of the account “Sam”". */
  async read(accountId: string, whose = 'The API key'): Promise<Result<string | null>> {
    const inMemory = this.#sessionOnly.get(accountId);
    if (inMemory !== undefined) return ok(inMemory);
    try {
      return ok(await this.#keychain.get(accountId));
    } catch (error) {
      return fail('keychain_unavailable', keychainProblem(`${whose} could not be read, since the system keychain did not answer`, error));
    }
  }

  isSessionOnly(accountId: string): boolean {
    return this.#sessionOnly.has(accountId);
  }

  async remove(accountId: string): Promise<Result<void>> {
    const wasSessionOnly = this.#sessionOnly.delete(accountId);
    try {
      await this.#keychain.delete(accountId);
      return ok(undefined);
    } catch (error) {
      // A session-only key never reached the keychain, so an unreachable one leaves nothing behind.
      return wasSessionOnly
        ? ok(undefined)
        : fail(
            'keychain_unavailable',
            keychainProblem('The API key could not be removed, since the system keychain did not answer', error),
          );
    }
  }

  async #forgetInKeychain(accountId: string): Promise<void> {
    // A session-only key replaces any stored one; an unreachable keychain has nothing to forget.
    await this.#keychain.delete(accountId).catch(() => false);
  }
}

/** What failed, with the keychain's own words in parentheses for a bug report. */
function keychainProblem(what: string, error: unknown): string {
  const detail = clause(thrownText(error));
  return detail === '' ? `${what}.` : `${what} (${detail}).`;
}
