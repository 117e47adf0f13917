import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A 26-character ULID, the shape of the real service's execution ids: time-ordered, then random. */
export function newExecutionId(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let random = '';
  for (const byte of randomBytes(16)) random += CROCKFORD[byte % 32];
  return time + random;
}

export function isExecutionId(value: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}

export function newApiKey(): string {
  return randomBytes(24).toString('base64url');
}
