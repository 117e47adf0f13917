import { z } from 'zod';
import { PLANS, type AccountStore } from './account-store.ts';

// The `--accounts FILE` content: accounts created or updated at start.

const handle = z.string().regex(/^[a-z][a-z0-9_]*$/, 'handles are lowercase letters, digits and _, starting with a letter');

const AccountSpec = z
  .object({
    handle,
    type: z.enum(['user', 'team']),
    plan: z.enum(PLANS),
    api_keys: z.array(z.string().min(1, 'an API key must not be empty')).default([]),
    members: z.array(handle).optional(),
  })
  .refine((a) => a.type === 'team' || a.members === undefined, { message: 'only a team has members', path: ['members'] });

export const AccountsConfig = z.object({ accounts: z.array(AccountSpec) }).superRefine((config, ctx) => {
  const handles = config.accounts.map((a) => a.handle);
  const keys = config.accounts.flatMap((a) => a.api_keys);
  if (new Set(handles).size !== handles.length) ctx.addIssue({ code: 'custom', message: 'a handle appears twice', path: ['accounts'] });
  if (new Set(keys).size !== keys.length) ctx.addIssue({ code: 'custom', message: 'an API key appears twice', path: ['accounts'] });
});
export type AccountsConfig = z.input<typeof AccountsConfig>;

export class AccountsConfigError extends Error {}

export type AccountSpec = z.output<typeof AccountSpec>;

/**
 * Checks the whole config first, then creates or updates its accounts, their keys (stored as
 * hashes, as every key; the ones listed are all the account's) and team members; answers the
 * accounts as given. Accounts the file does not name (the demo account) keep their keys.
 */
export async function applyAccountsConfig(accounts: AccountStore, config: unknown): Promise<AccountSpec[]> {
  const parsed = AccountsConfig.safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(top)'}: ${i.message}`);
    throw new AccountsConfigError(`invalid accounts: ${problems.join('; ')}`);
  }
  const inConfig = new Set(parsed.data.accounts.map((a) => a.handle));
  for (const spec of parsed.data.accounts) {
    for (const member of spec.members ?? []) {
      if (!inConfig.has(member) && !(await accounts.byHandle(member))) {
        throw new AccountsConfigError(`invalid accounts: team '${spec.handle}' lists unknown member '${member}'`);
      }
    }
  }
  const ids = new Map<string, number>();
  for (const spec of parsed.data.accounts) {
    const account = await accounts.upsert(spec.handle, spec.type, spec.plan);
    ids.set(spec.handle, account.id);
    // the file's keys are all the account's: a key taken out of the file is refused from this start
    await accounts.replaceApiKeys(account.id, ...spec.api_keys);
  }
  for (const spec of parsed.data.accounts) {
    if (!spec.members) continue;
    const memberIds: number[] = [];
    for (const member of spec.members) memberIds.push(ids.get(member) ?? (await accounts.byHandle(member))!.id);
    await accounts.setMembers(ids.get(spec.handle)!, memberIds);
  }
  return parsed.data.accounts;
}
