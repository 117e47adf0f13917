// Accounts of the issue's `--accounts` example, plus a second plus user to stand for "another context".
export const ACCOUNTS = {
  accounts: [
    { handle: 'alice', type: 'user', plan: 'plus', api_keys: ['key-alice'] },
    { handle: 'bob', type: 'user', plan: 'free', api_keys: ['key-bob'] },
    { handle: 'carol', type: 'user', plan: 'plus', api_keys: ['key-carol'] },
    { handle: 'acme', type: 'team', plan: 'premium', members: ['alice'], api_keys: ['key-acme'] },
  ],
};

export const KEYS = { alice: 'key-alice', bob: 'key-bob', carol: 'key-carol', acme: 'key-acme' } as const;
