import { describe, expect, it } from 'vitest';
import { isServiceName } from '../../../main/common/service-name.ts';
import { channels } from '../../../main/contract/index.ts';
import { parseServiceArgs } from '../../../main/service/cli-args.ts';
import { accountProblems } from '../../../renderer/src/accounts/account-fields.ts';

const longest = 'A' + 'b'.repeat(39);

describe('the service-name rule', () => {
  it('takes letters, digits and underscores starting with a letter, up to 40 of them', () => {
    for (const name of ['DUNE', 'a', 'acme_2', longest]) expect(isServiceName(name)).toBe(true);
    for (const name of ['', '_a', '2a', 'x-y', 'a b', 'é', `${longest}c`]) expect(isServiceName(name)).toBe(false);
  });

  it('is the one the service, the contract and the account form apply', () => {
    const fields = { label: 'x', baseUrl: 'https://api.dune.com', kind: 'user' as const, apiKey: 'k' };
    expect(() => parseServiceArgs(['--service-name', longest])).not.toThrow();
    expect(() => parseServiceArgs(['--service-name', `${longest}c`])).toThrow(/^--service-name must be at most 40 letters/);
    const add = channels['accounts:add'].request;
    expect(add.safeParse({ ...fields, serviceName: longest }).success).toBe(true);
    expect(add.safeParse({ ...fields, serviceName: `${longest}c` }).error?.issues[0]?.message).toBe(
      'serviceName must be at most 40 letters, digits and underscores, starting with a letter',
    );
    expect(accountProblems({ ...fields, serviceName: longest }, true).serviceName).toBeUndefined();
    expect(accountProblems({ ...fields, serviceName: `${longest}c` }, true).serviceName).toMatch(/at most 40/);
  });
});
