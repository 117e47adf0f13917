import { z } from 'zod';

// What is kept of the accounts the user added, in the settings store: never a key.

export const AccountProfile = z.object({
  id: z.string().min(1),
  label: z.string(),
  kind: z.enum(['user', 'team']),
  handle: z.string().nullable(),
  baseUrl: z.string(),
  serviceName: z.string(),
});
export type AccountProfile = z.infer<typeof AccountProfile>;

export const AccountSettings = z.object({
  accounts: z.array(AccountProfile),
  /** Null, or an account that is gone, means Local. */
  activeAccountId: z.string().nullable(),
});
export type AccountSettings = z.infer<typeof AccountSettings>;

export const defaultAccountSettings = (): AccountSettings => ({ accounts: [], activeAccountId: null });
