import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The secret that lets the page opened from the printed URL, and nothing else, use the contract.

export function createAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time, whatever the lengths: both sides are hashed to the same size first. */
export function tokenMatches(expected: string, candidate: string | null): boolean {
  if (candidate === null) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(candidate));
}
