import { describe, expect, it, vi } from 'vitest';
import { accountForLink, deepLinkIn, LinkRouter, parseDeepLink } from '../../../main/electron/deep-link.ts';

describe('querydesk:// links', () => {
  it('names a query, and an account by its name', () => {
    expect(parseDeepLink('querydesk://query/4242')).toEqual({ queryId: 4242, accountName: null });
    expect(parseDeepLink('querydesk://query/7/?account=Team%20analytics')).toEqual({ queryId: 7, accountName: 'Team analytics' });
  });

  it('reads nothing else', () => {
    for (const text of [
      'querydesk://query/0',
      'querydesk://query/-3',
      'querydesk://query/12abc',
      'querydesk://query/1/2',
      'querydesk://execution/5',
      'querydesk://user:pw@query/5',
      'querydesk://query/5?account=',
      `querydesk://query/5?account=${'x'.repeat(101)}`,
      'https://dune.com/queries/5',
      'not a url',
    ]) {
      expect(parseDeepLink(text), text).toBeNull();
    }
  });

  it('finds the link among the arguments of a launch', () => {
    expect(deepLinkIn(['/opt/Querydesk/querydesk', '--no-sandbox', 'querydesk://query/9?account=Local'])).toEqual({
      queryId: 9,
      accountName: 'Local',
    });
    expect(deepLinkIn(['/opt/Querydesk/querydesk', 'querydesk://nonsense', '--flag'])).toBeNull();
  });

  it('finds the account by its name, whatever the case, or Local when none is named', () => {
    const accounts = [
      { id: 'local', label: 'Local', isLocal: true },
      { id: 'a1', label: 'Team Analytics', isLocal: false },
    ];
    expect(accountForLink({ queryId: 1, accountName: null }, accounts)?.id).toBe('local');
    expect(accountForLink({ queryId: 1, accountName: 'team analytics' }, accounts)?.id).toBe('a1');
    expect(accountForLink({ queryId: 1, accountName: 'Someone else' }, accounts)).toBeNull();
  });
});

describe('the link router', () => {
  const accounts = [
    { id: 'local', label: 'Local', isLocal: true },
    { id: 'a1', label: 'Team', isLocal: false },
  ];

  function destination(log: string[]) {
    return {
      accounts: async () => accounts,
      open: (accountId: string, queryId: number) => log.push(`open ${accountId} ${queryId}`),
      noSuchAccount: (name: string, queryId: number) => log.push(`no account ${name} for ${queryId}`),
    };
  }

  it('keeps the link of a launch until the window is ready, then opens it', async () => {
    const log: string[] = [];
    const router = new LinkRouter(parseDeepLink('querydesk://query/12?account=Team'));
    router.receive(null);
    expect(log).toEqual([]);
    router.ready(destination(log));
    await vi.waitFor(() => expect(log).toEqual(['open a1 12']));
    router.receive(parseDeepLink('querydesk://query/3'));
    router.receive(parseDeepLink('querydesk://query/4?account=Nobody'));
    await vi.waitFor(() => expect(log).toEqual(['open a1 12', 'open local 3', 'no account Nobody for 4']));
  });

  it('opens only the latest link that came before the window', async () => {
    const log: string[] = [];
    const router = new LinkRouter(null);
    router.receive(parseDeepLink('querydesk://query/1'));
    router.receive(parseDeepLink('querydesk://query/2'));
    router.ready(destination(log));
    await vi.waitFor(() => expect(log).toEqual(['open local 2']));
  });
});
