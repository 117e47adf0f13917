import { describe, expect, it } from 'vitest';
import { apiRoot, isUnderRoot } from '../../../../main/core/service-client/request.ts';

describe('the API root of a base URL', () => {
  it.each([
    'https://api.dune.com',
    'https://api.dune.com/',
    'https://api.dune.com/api',
    'https://api.dune.com/api/',
    'https://api.dune.com/api/v1',
    'https://api.dune.com/api/v1/',
    'https://api.dune.com:443',
    'HTTPS://API.DUNE.COM',
    'https://Api.Dune.com/api/v1',
  ])('%s has its root at https://api.dune.com/api/v1', (base) => {
    expect(apiRoot(base)).toEqual({ ok: true, url: 'https://api.dune.com/api/v1' });
  });

  it('keeps the port that is not the default, and a path before /api', () => {
    expect(apiRoot('http://LOCALHOST:8080/')).toEqual({ ok: true, url: 'http://localhost:8080/api/v1' });
    expect(apiRoot('http://localhost:80')).toEqual({ ok: true, url: 'http://localhost/api/v1' });
    expect(apiRoot('https://proxy.example/dune/api/v1')).toEqual({ ok: true, url: 'https://proxy.example/dune/api/v1' });
  });

  it('is none for a base with a query string, a fragment or credentials', () => {
    for (const base of ['https://api.dune.com/?x=1', 'https://api.dune.com#f', 'https://u:p@api.dune.com', 'ftp://api.dune.com']) {
      expect(apiRoot(base).ok).toBe(false);
    }
  });

  it('holds every address the client builds, and none elsewhere', () => {
    const root = 'https://api.dune.com/api/v1';
    expect(isUnderRoot(root, new URL('HTTPS://API.DUNE.COM:443/api/v1/queries?limit=5'))).toBe(true);
    for (const elsewhere of [
      'https://api.dune.com/api/v1',
      'https://api.dune.com/api/v10/queries',
      'https://api.dune.com/api/v1/../v2/queries',
      'http://api.dune.com/api/v1/queries',
      'https://api.dune.com:8443/api/v1/queries',
      'https://api.dune.com.evil.example/api/v1/queries',
      'https://evil.example/https://api.dune.com/api/v1/queries',
    ]) {
      expect(isUnderRoot(root, new URL(elsewhere)), elsewhere).toBe(false);
    }
  });
});
