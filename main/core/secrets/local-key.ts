import { LOCAL_ACCOUNT_ID } from '../accounts/registry.ts';
import type { KeyVault } from './key-vault.ts';

// The embedded service keeps only a hash of the Local account's key, so it cannot give the key
// back at its next start: the host keeps it in the OS keychain, beside the keys of the accounts
// the user added, and hands it to the service when it starts it. Where no keychain answers, the
// service makes a fresh key at each start, which is all the app needs: the key never leaves it.

/** The Local account's key from an earlier start; null when none is kept or the keychain does not answer. */
export async function keptLocalKey(vault: KeyVault): Promise<string | null> {
  const read = await vault.read(LOCAL_ACCOUNT_ID);
  return read.ok ? read.data : null;
}

/** Keeps the key the service gave the Local account for the next start; a keychain that refuses only means a fresh key then. */
export async function keepLocalKey(vault: KeyVault, kept: string | null, key: string | null): Promise<void> {
  if (key !== null && key !== kept) await vault.save(LOCAL_ACCOUNT_ID, key);
}
