import { createHash } from 'node:crypto';

/**
 * What the service stores of an API key: its SHA-256, in hex, so that a copy of the data folder
 * gives no key away. A plain hash is enough, with no salt or slow key derivation: the service's
 * own keys are 24 random bytes (newApiKey), far beyond guessing whatever the hash costs, and a
 * lookup must stay one indexed read per request. (A weak key someone chose for the accounts file
 * is only as strong as itself, stored or not.) DuckDB's sha256() gives the same text, for the
 * data folders whose keys are hashed where they lie (storage/hash-stored-keys.ts).
 */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}
