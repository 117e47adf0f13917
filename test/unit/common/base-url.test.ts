import { describe, expect, it } from 'vitest';
import { readBaseUrl } from '../../../main/common/base-url.ts';
import { channels } from '../../../main/contract/index.ts';
import { accountProblems } from '../../../renderer/src/accounts/account-fields.ts';

describe('a base URL', () => {
  it.each([
    ['https://api.dune.com', 'https://api.dune.com'],
    ['https://api.dune.com/', 'https://api.dune.com'],
    ['https://api.dune.com:443', 'https://api.dune.com'],
    ['HTTPS://API.DUNE.COM', 'https://api.dune.com'],
    ['https://Api.Dune.com/api/v1', 'https://api.dune.com/api/v1'],
    ['https://api.dune.com/api/v1//', 'https://api.dune.com/api/v1'],
    ['http://localhost:80', 'http://localhost'],
    ['http://LOCALHOST:8080/', 'http://localhost:8080'],
    ['  https://api.dune.com\n', 'https://api.dune.com'],
  ])('%j reads as %s', (text, url) => {
    expect(readBaseUrl(text)).toEqual({ ok: true, url });
  });

  it.each([
    ['https://api.dune.com/?x=1', 'baseUrl must not hold a query string (?x=1)'],
    ['https://api.dune.com/#f', 'baseUrl must not hold a fragment (#f)'],
    ['https://me:secret@api.dune.com', 'baseUrl must not hold a user name or password (user:pass@): the API key is what is sent'],
    ['https://me@api.dune.com', 'baseUrl must not hold a user name or password (user:pass@): the API key is what is sent'],
    ['ftp://api.dune.com', 'baseUrl must be an http or https URL, not ftp:'],
    ['api.dune.com', 'baseUrl must be an http or https URL, such as https://api.dune.com'],
  ])('%j is refused: %s', (text, problem) => {
    expect(readBaseUrl(text)).toEqual({ ok: false, problem });
  });

  it('is kept by the contract in that form, and refused there with the same words', () => {
    const add = channels['accounts:add'].request;
    const fields = { label: 'x', apiKey: 'k' };
    expect(add.parse({ ...fields, baseUrl: 'HTTPS://API.DUNE.COM:443/' }).baseUrl).toBe('https://api.dune.com');
    expect(add.parse(fields).baseUrl).toBe('https://api.dune.com');
    expect(add.safeParse({ ...fields, baseUrl: 'https://api.dune.com/?x=1' }).error?.issues[0]?.message).toBe(
      'baseUrl must not hold a query string (?x=1)',
    );
    const update = channels['accounts:update'].request;
    expect(update.parse({ accountId: 'a', baseUrl: 'http://LOCALHOST:80/api' }).baseUrl).toBe('http://localhost/api');
    expect(update.parse({ accountId: 'a' }).baseUrl).toBeUndefined();
  });

  it("is the account form's rule too, in the form's words, before anything is sent", () => {
    const fields = { label: 'x', serviceName: 'DUNE', kind: 'user' as const, apiKey: 'k' };
    expect(accountProblems({ ...fields, baseUrl: 'HTTPS://API.DUNE.COM:443/' }, true).baseUrl).toBeUndefined();
    expect(accountProblems({ ...fields, baseUrl: 'https://api.dune.com/?x=1' }, true).baseUrl).toBe(
      'The address must not hold a query string (?x=1).',
    );
    expect(accountProblems({ ...fields, baseUrl: 'https://me:secret@api.dune.com' }, true).baseUrl).toMatch(
      /^The address must not hold a user name/,
    );
    expect(accountProblems({ ...fields, baseUrl: 'api.dune.com' }, true).baseUrl).toBe(
      'The address must be an http or https URL, such as https://api.dune.com.',
    );
  });
});
