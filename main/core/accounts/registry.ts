import { randomUUID } from 'node:crypto';
import { fail, ok, type Account, type Failure, type Result } from '../../contract/index.ts';
import { isFailure, noSuchAccount } from '../failures.ts';
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
  update(accountId: string, fields: ProfileFields, apiKey: string | undefined, options: { sessionOnly?: boolean }): Promise<Result<Account>>;
  remove(accountId: string): Promise<Result<{ activeAccountId: string }>>;
  setActive(accountId: string): Result<{ activeAccountId: string }>;
}

interface Held {
  profile: AccountProfile;
  key: string | null;
  entry: AccountEntry;
}

export async function createAccountRegistry(options: {
  localService: { baseUrl: string; apiKey: string | null };
  settings: SettingsStore<AccountSettings>;
  vault: KeyVault;
  /** How requests reach the services of added accounts; the embedded one is always reached directly. */
  fetch?: Fetch;
  /** Told every key that is read or entered, so the log can mask it. */
  onKey?: (key: string) => void;
  /** Told after every attempt of an account's client whether its service answered (see ServiceConnection.onReach). */
  onReach?: (accountId: string, failure: ServiceError | null) => void;
}): Promise<AccountRegistry> {
  const { settings, vault } = options;
  const noteKey = (key: string | null | undefined) => {
    if (key) options.onKey?.(key);
  };
  noteKey(options.localService.apiKey);
  const reporterFor = (accountId: string) => (options.onReach === undefined ? undefined : (failure: ServiceError | null) => options.onReach?.(accountId, failure));
  const local = localEntry(options.localService, reporterFor(LOCAL_ACCOUNT_ID));
  const held = new Map<string, Held>();
  const stored = settings.read();
  for (const profile of stored.accounts) {
    if (profile.id === LOCAL_ACCOUNT_ID) continue;
    held.set(profile.id, hold(profile, await readKey(vault, profile)));
  }
  let active = stored.activeAccountId !== null && held.has(stored.activeAccountId) ? stored.activeAccountId : LOCAL_ACCOUNT_ID;

  function hold(profile: AccountProfile, key: { key: string | null; problem: KeyProblem | null }): Held {
    noteKey(key.key);
    const account: Account = {
      ...profile,
      keyHint: keyHint(key.key),
      keyStorage: key.key === null ? 'missing' : vault.isSessionOnly(profile.id) ? 'session' : 'keychain',
      isLocal: false,
    };
    const client =
      key.key === null
        ? null
        : createServiceClient({ baseUrl: profile.baseUrl, serviceName: profile.serviceName, apiKey: key.key, fetch: options.fetch, onReach: reporterFor(profile.id) });
    return { profile, key: key.key, entry: { account, client, keyProblem: key.problem } };
  }

  function persist(): void {
    settings.write({ accounts: [...held.values()].map((h) => h.profile), activeAccountId: active === LOCAL_ACCOUNT_ID ? null : active });
  }

  function editable(accountId: string): Held | Failure {
    if (accountId === LOCAL_ACCOUNT_ID) return fail('bad_request', 'The Local account belongs to the app: it cannot be changed or removed.');
    return held.get(accountId) ?? noSuchAccount(accountId);
  }

  /** Saves the key first: a profile is never kept for a key that could not be stored. */
  async function store(profile: AccountProfile, apiKey: string | undefined, sessionOnly: boolean, previous: Held | undefined): Promise<Result<Account>> {
    if (apiKey !== undefined) {
      const saved = await vault.save(profile.id, apiKey, { sessionOnly });
      if (!saved.ok) return saved;
    }
    const next = apiKey === undefined && previous ? hold(profile, { key: previous.key, problem: previous.entry.keyProblem }) : hold(profile, { key: apiKey ?? null, problem: null });
    held.set(profile.id, next);
    try {
      persist();
    } catch (error) {
      if (previous) held.set(profile.id, previous);
      else {
        held.delete(profile.id);
        await vault.remove(profile.id);
      }
      throw error;
    }
    return ok({ ...next.entry.account });
  }

  return {
    list: () => [{ ...local.account }, ...[...held.values()].map((h) => ({ ...h.entry.account }))],
    get: (accountId) => (accountId === LOCAL_ACCOUNT_ID ? local : (held.get(accountId)?.entry ?? null)),
    activeAccountId: () => active,

    profile(accountId) {
      const current = editable(accountId);
      return isFailure(current) ? current : { ...current.profile };
    },

    connectionWith(accountId, fields, apiKey) {
      noteKey(apiKey);
      const key = apiKey ?? (accountId === LOCAL_ACCOUNT_ID ? options.localService.apiKey : held.get(accountId)?.key) ?? null;
      if (key === null) return null;
      return { baseUrl: fields.baseUrl, serviceName: fields.serviceName, apiKey: key, fetch: accountId === LOCAL_ACCOUNT_ID ? undefined : options.fetch };
    },

    newConnection(fields, apiKey) {
      noteKey(apiKey);
      return { baseUrl: fields.baseUrl, serviceName: fields.serviceName, apiKey, fetch: options.fetch };
    },

    add: (fields, apiKey, { sessionOnly = false }) => store({ id: randomUUID(), ...fields }, apiKey, sessionOnly, undefined),

    async update(accountId, fields, apiKey, { sessionOnly = false }) {
      const current = editable(accountId);
      if (isFailure(current)) return current;
      return store({ ...fields, id: accountId }, apiKey, sessionOnly, current);
    },

    async remove(accountId) {
      const current = editable(accountId);
      if (isFailure(current)) return current;
      // The key goes first: an account is never forgotten while its key stays behind in the keychain.
      const removed = await vault.remove(accountId);
      if (!removed.ok) return removed;
      held.delete(accountId);
      if (active === accountId) active = LOCAL_ACCOUNT_ID;
      persist();
      return ok({ activeAccountId: active });
    },

    setActive(accountId) {
      if (accountId !== LOCAL_ACCOUNT_ID && !held.has(accountId)) {
        return noSuchAccount(accountId);
      }
      active = accountId;
      persist();
      return ok({ activeAccountId: active });
    },
  };
}

function localEntry(localService: { baseUrl: string; apiKey: string | null }, onReach: ServiceConnection['onReach']): AccountEntry {
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
    client: createServiceClient({ baseUrl: localService.baseUrl, serviceName, apiKey: localService.apiKey ?? '', onReach }),
    keyProblem: null,
  };
}

async function readKey(vault: KeyVault, profile: AccountProfile): Promise<{ key: string | null; problem: KeyProblem | null }> {
  const whose = `The API key of the account “${profile.label}”`;
  const read = await vault.read(profile.id, whose);
  if (!read.ok) return { key: null, problem: { code: 'keychain_unavailable', message: read.error.message } };
  if (read.data === null) {
    return { key: null, problem: { code: 'bad_key', message: `${whose} is not in the system keychain. Enter it again in the account’s settings.` } };
  }
  return { key: read.data, problem: null };
}
