import { z } from 'zod';
import { readBaseUrl } from '../common/base-url.ts';
import { SERVICE_NAME, SERVICE_NAME_RULE } from '../common/service-name.ts';
import { DEFAULT_BASE_URL, DEFAULT_SERVICE_NAME } from './defaults.ts';
import { Account, accountId, KeychainStatus } from './models.ts';

// The accounts' channels: the profiles main keeps, their keys in the keychain, and the active one.

const label = z.string().trim().min(1).max(100);
const accountKind = z.enum(['user', 'team']);
/** Kept in URL's normal form, the form the service client compares addresses in before it sends the key. */
const baseUrl = z
  .string()
  .max(500)
  .transform((text, context) => {
    const base = readBaseUrl(text);
    if (base.ok) return base.url;
    context.addIssue({ code: 'custom', message: base.problem });
    return z.NEVER;
  });
/** It becomes a header name, `X-<serviceName>-API-KEY`. */
const serviceName = z.string().regex(SERVICE_NAME, `serviceName must be ${SERVICE_NAME_RULE}`);
/** Pasted keys often carry a stray space or line break. */
const apiKey = z.string().trim().min(1).max(500);

export const accountsChannels = {
  'accounts:list': {
    request: z.object({}).strict(),
    response: z.object({ accounts: z.array(Account), activeAccountId: accountId, keychain: KeychainStatus }),
  },
  /**
   * The key is checked with one authenticated call before anything is saved. When the keychain is
   * unreachable this fails with `keychain_unavailable`; the UI may then send it again with
   * `sessionOnly: true` (the key is kept in memory until the app quits).
   */
  'accounts:add': {
    request: z
      .object({
        label,
        kind: accountKind.default('user'),
        baseUrl: baseUrl.default(DEFAULT_BASE_URL),
        serviceName: serviceName.default(DEFAULT_SERVICE_NAME),
        apiKey,
        sessionOnly: z.boolean().optional(),
      })
      .strict(),
    response: Account,
  },
  /** A new key, or a new baseUrl or serviceName, is checked before it is saved. Local cannot be changed. */
  'accounts:update': {
    request: z
      .object({
        accountId,
        label: label.optional(),
        kind: accountKind.optional(),
        baseUrl: baseUrl.optional(),
        serviceName: serviceName.optional(),
        apiKey: apiKey.optional(),
        sessionOnly: z.boolean().optional(),
      })
      .strict(),
    response: Account,
  },
  /** Removes the profile and its keychain entry; the active account falls back to Local. */
  'accounts:remove': {
    request: z.object({ accountId }).strict(),
    response: z.object({ activeAccountId: accountId }),
  },
  'accounts:setActive': {
    request: z.object({ accountId }).strict(),
    response: z.object({ activeAccountId: accountId }),
  },
  /** One authenticated call with the stored key; a refusal comes back as the error (bad_key, forbidden, unreachable...). */
  'accounts:test': {
    request: z.object({ accountId }).strict(),
    response: z.object({ latencyMs: z.number().int().nonnegative(), handle: z.string().nullable() }),
  },
} as const;
