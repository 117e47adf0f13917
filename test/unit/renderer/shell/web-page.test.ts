import { describe, expect, it } from 'vitest';
import { webPageOf } from '../../../../renderer/src/shell/web-page.ts';

describe('a query page on the website', () => {
  it('exists for accounts on the real service only', () => {
    expect(webPageOf({ isLocal: false, baseUrl: 'https://api.dune.com' }, 3237025)).toBe('https://dune.com/queries/3237025');
    expect(webPageOf({ isLocal: false, baseUrl: 'https://api.dune.com/api/v1/' }, 12)).toBe('https://dune.com/queries/12');
    expect(webPageOf({ isLocal: true, baseUrl: 'https://api.dune.com' }, 12)).toBeNull();
    expect(webPageOf({ isLocal: false, baseUrl: 'http://127.0.0.1:4000' }, 12)).toBeNull();
    expect(webPageOf({ isLocal: false, baseUrl: 'http://api.dune.com' }, 12)).toBeNull();
    expect(webPageOf({ isLocal: false, baseUrl: 'https://api.dune.com.evil.example' }, 12)).toBeNull();
  });
});
