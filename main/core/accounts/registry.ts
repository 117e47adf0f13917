import { randomUUID } from 'node:crypto';
import { fail, ok, type Account, type Failure, type Result } from '../../contract/index.ts';
import { isFailure, noSuchAccount } from '../failures.ts';
import { loopbackFetch } from '../network/loopback-fetch.ts';
import type { KeyVault } from '../secrets/key-vault.ts';
import { createServiceClient, type Fetch, type ServiceClient, type ServiceConnection, type ServiceError } from '../service-client/index.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import { keyHint } from './key-hint.ts';
import type { AccountProfile, AccountSettings } from './profiles.ts';

// The accounts core can talk to: Local (the embedded service, its key from the host) and the ones
// the user added (profiles in the settings store, keys in the key vault). Keys are held in memory
// here and used only to build clients; what leaves core is the Account with its masked hint.

export const LOCAL_ACCOUNT_ID = 'local';

export type ProfileFields = Omit<AccountProfile, 'id'>;

export interface KeyProblem {
  code: 'bad_key' | 'keychain_unavailable';
  message: string;
}

export interface AccountEntry {
  account: Account;
  /** Null while the account has no key to use; `keyProblem` says why. */
  client: ServiceClient | null;
  keyProblem: KeyProblem | null;
}

export interface AccountRegistry {
  list(): Account[];
  get(accountId: string): AccountEntry | null;
  activeAccountId(): string;
  /** The stored profile of an account the user added; Local and unknown ids are failures. */
  profile(accountId: string): AccountProfile | Failure;
  /** The connection an account would use with these fields: its own key unless a new one is given. */
  connectionWith(accountId: string, fields: ProfileFields, apiKey?: string): ServiceConnection | null;
  /** The connection an account about to be added would use. */
  newConnection(fields: Pick<ProfileFields, 'baseUrl' | 'serviceName'>, apiKey: string): ServiceConnection;
  add(fields: ProfileFields, apiKey: string, options: { sessionOnly?: boolean }): Promise<Result<Account>>;
  /** Replaces the profile's fields, and the key when one is given. */
  update(
    accountId: string,
    fields: ProfileFields,
    apiKey: string | undefined,
    options: { sessionOnly?: boolean },
  ): Promise<Result<Account>>;
  remove(accountId: string): Promise<Result<{ activeAccountId: string }>>;
  setActive(accountId: string): Result<{ activeAccountId: string }>;
}

/** An account the user added, as held in memory: its profile, its key, and what is built from them. */
interface AddedAccount {
  profile: AccountProfile;
  key: string | null;
  entry: AccountEntry;
}

/** The embedded service the Local account talks to, and its key. */
export interface LocalService {
  baseUrl: string;
  apiKey: string | null;
  /** How its requests reach it: loopbackFetch unless given (a service still starting: see hosting/starting-service.ts). */
  fetch?: Fetch;
}

interface RegistryOptions {
  localService: LocalService;
  settings: SettingsStore<AccountSettings>;
  vault: KeyVault;
  /** How requests reach the services of added accounts; the embedded one is always reached directly. */
  fetch?: Fetch;
  /** Told every key that is read or entered, so the log can mask it. */
  onKey?: (key: string) => void;
  /** Told after every attempt of an account's client whether its service answered (see ServiceConnection.onReach). */
  onReach?: (accountId: string, failure: ServiceError | null) => void;
  /** Wraps each account's client, to count what it asks of the service (the usage record). */
  meter?: (accountId: string, client: ServiceClient) => ServiceClient;
}

type KeyRead = { key: string | null; problem: KeyProblem | null };

export async function createAccountRegistry(options: RegistryOptions): Promise<AccountRegistry> {
  const registry = new Registry(options);
  await registry.load();
  return registry;
}

class Registry implements AccountRegistry {
  readonly #options: RegistryOptions;
  readonly #local: AccountEntry;
  readonly #added = new Map<string, AddedAccount>();
  #active = LOCAL_ACCOUNT_ID;

  constructor(options: RegistryOptions) {
    this.#options = options;
    this.#noteKey(options.localService.apiKey);
    this.#local = localEntry(options.localService, (connection) => this.#client(LOCAL_ACCOUNT_ID, connection));
  }

  /** Reads the added accounts from the settings store, and their keys from the vault. */
  async load(): Promise<void> {
    const stored = this.#options.settings.read();
    for (const profile of stored.accounts) {
      if (profile.id === LOCAL_ACCOUNT_ID) continue;
      this.#added.set(profile.id, this.#addedAccount(profile, await readKey(this.#options.vault, profile)));
    }
    const active = stored.activeAccountId;
    this.#active = active !== null && this.#added.has(active) ? active : LOCAL_ACCOUNT_ID;
  }

  #noteKey(key: string | null | undefined): void {
    if (key) this.#options.onKey?.(key);
  }

  #reporterFor(accountId: string): ServiceConnection['onReach'] {
    const { onReach } = this.#options;
    return onReach === undefined ? undefined : (failure: ServiceError | null) => onReach(accountId, failure);
  }

  #client(accountId: string, connection: Omit<ServiceConnection, 'onReach'>): ServiceClient {
    const client = createServiceClient({ ...connection, onReach: this.#reporterFor(accountId) });
    return this.#options.meter?.(accountId, client) ?? client;
  }

  /** The account as held in memory with this key: the Account shown for it and its client. */
  #addedAccount(profile: AccountProfile, key: KeyRead): AddedAccount {
    this.#noteKey(key.key);
    const account: Account = {
      ...profile,
      keyHint: keyHint(key.key),
      keyStorage: key.key === null ? 'missing' : this.#options.vault.isSessionOnly(profile.id) ? 'session' : 'keychain',
      isLocal: false,
    };
    const client =
      key.key === null
        ? null
        : this.#client(profile.id, {
            baseUrl: profile.baseUrl,
            serviceName: profile.serviceName,
            apiKey: key.key,
            fetch: this.#options.fetch,
          });
    return { profile, key: key.key, entry: { account, client, keyProblem: key.problem } };
  }

  #persist(): void {
    this.#options.settings.write({
      accounts: [...this.#added.values()].map((h) => h.profile),
      activeAccountId: this.#active === LOCAL_ACCOUNT_ID ? null : this.#active,
    });
  }

  #editable(accountId: string): AddedAccount | Failure {
    if (accountId === LOCAL_ACCOUNT_ID)
      return fail('bad_request', 'The Local account belongs to the app: it cannot be changed or removed.');
    return this.#added.get(accountId) ?? noSuchAccount(accountId);
  }

  /** Saves the key first: a profile is never kept for a key that could not be stored. */
  async #store(
    profile: AccountProfile,
    apiKey: string | undefined,
    sessionOnly: boolean,
    previous: AddedAccount | undefined,
  ): Promise<Result<Account>> {
    const { vault } = this.#options;
    if (apiKey !== undefined) {
      const saved = await vault.save(profile.id, apiKey, { sessionOnly });
      if (!saved.ok) return saved;
    }
    const key =
      apiKey === undefined && previous ? { key: previous.key, problem: previous.entry.keyProblem } : { key: apiKey ?? null, problem: null };
    const next = this.#addedAccount(profile, key);
    this.#added.set(profile.id, next);
    try {
      this.#persist();
    } catch (error) {
      if (previous) this.#added.set(profile.id, previous);
      else {
        this.#added.delete(profile.id);
        await vault.remove(profile.id);
      }
      throw error;
    }
    return ok({ ...next.entry.account });
  }

  list(): Account[] {
    return [{ ...this.#local.account }, ...[...this.#added.values()].map((h) => ({ ...h.entry.account }))];
  }

  get(accountId: string): AccountEntry | null {
    return accountId === LOCAL_ACCOUNT_ID ? this.#local : (this.#added.get(accountId)?.entry ?? null);
  }

  activeAccountId(): string {
    return this.#active;
  }

  profile(accountId: string): AccountProfile | Failure {
    const current = this.#editable(accountId);
    return isFailure(current) ? current : { ...current.profile };
  }

  connectionWith(accountId: string, fields: ProfileFields, apiKey?: string): ServiceConnection | null {
    this.#noteKey(apiKey);
    const isLocal = accountId === LOCAL_ACCOUNT_ID;
    const key = apiKey ?? (isLocal ? this.#options.localService.apiKey : this.#added.get(accountId)?.key) ?? null;
    if (key === null) return null;
    return {
      baseUrl: fields.baseUrl,
      serviceName: fields.serviceName,
      apiKey: key,
      fetch: isLocal ? (this.#options.localService.fetch ?? loopbackFetch) : this.#options.fetch,
    };
  }

  newConnection(fields: Pick<ProfileFields, 'baseUrl' | 'serviceName'>, apiKey: string): ServiceConnection {
    this.#noteKey(apiKey);
    return { baseUrl: fields.baseUrl, serviceName: fields.serviceName, apiKey, fetch: this.#options.fetch };
  }

  add(fields: ProfileFields, apiKey: string, { sessionOnly = false }: { sessionOnly?: boolean }): Promise<Result<Account>> {
    return this.#store({ id: randomUUID(), ...fields }, apiKey, sessionOnly, undefined);
  }

  async update(
    accountId: string,
    fields: ProfileFields,
    apiKey: string | undefined,
    { sessionOnly = false }: { sessionOnly?: boolean },
  ): Promise<Result<Account>> {
    const current = this.#editable(accountId);
    if (isFailure(current)) return current;
    return this.#store({ ...fields, id: accountId }, apiKey, sessionOnly, current);
  }

  async remove(accountId: string): Promise<Result<{ activeAccountId: string }>> {
    const current = this.#editable(accountId);
    if (isFailure(current)) return current;
    // The key goes first: an account is never forgotten while its key stays behind in the keychain.
    const removed = await this.#options.vault.remove(accountId);
    if (!removed.ok) return removed;
    this.#added.delete(accountId);
    if (this.#active === accountId) this.#active = LOCAL_ACCOUNT_ID;
    this.#persist();
    return ok({ activeAccountId: this.#active });
  }

  setActive(accountId: string): Result<{ activeAccountId: string }> {
    if (accountId !== LOCAL_ACCOUNT_ID && !this.#added.has(accountId)) {
      return noSuchAccount(accountId);
    }
    this.#active = accountId;
    this.#persist();
    return ok({ activeAccountId: this.#active });
  }
}

function localEntry(localService: LocalService, clientOf: (connection: Omit<ServiceConnection, 'onReach'>) => ServiceClient): AccountEntry {
  const serviceName = 'DUNE';
  return {
    account: {
      id: LOCAL_ACCOUNT_ID,
      label: 'Local',
      kind: 'user',
      handle: null,
      baseUrl: localService.baseUrl,
      serviceName,
      keyHint: keyHint(localService.apiKey),
      keyStorage: 'host',
      isLocal: true,
    },
    client: clientOf({
      baseUrl: localService.baseUrl,
      serviceName,
      apiKey: localService.apiKey ?? '',
      fetch: localService.fetch ?? loopbackFetch,
    }),
    keyProblem: null,
  };
}

async function readKey(vault: KeyVault, profile: AccountProfile): Promise<KeyRead> {
  const whose = `The API key of the account “${profile.label}”`;
  const read = await vault.read(profile.id, whose);
  if (!read.ok) return { key: null, problem: { code: 'keychain_unavailable', message: read.error.message } };
  if (read.data === null) {
    return {
      key: null,
      problem: { code: 'bad_key', message: `${whose} is not in the system keychain. Enter it again in the account’s settings.` },
    };
  }
  return { key: read.data, problem: null };
}
