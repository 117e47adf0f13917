import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../../main/core/logging/redact.ts';

// A key reaches a log line in many shapes: each one written by Node, a proxy or the app is masked.

const KEY = 'q1w2e3r4t5y6u7i8';

describe('the redactor', () => {
  it.each([
    ['a header line', `X-Dune-API-Key: ${KEY}`],
    ['a header as curl writes it', `-H "X-Dune-Api-Key ${KEY}"`],
    ['JSON', `{"headers":{"x-dune-api-key":"${KEY}"}}`],
    ['a Headers object as Node prints it', `Headers { 'x-dune-api-key' => '${KEY}' }`],
    ['a [name, value] pair', `[ [ 'X-Dune-API-Key', '${KEY}' ] ]`],
    ['a query string', `GET /api/v1/query/1/results?api_key=${KEY}&limit=5`],
    ['a URL-encoded query string', `next=%2Fresults%3Fapi_key%3D${KEY}`],
    ['a bearer token', `authorization: Bearer ${KEY}`],
    ['a Headers object holding a bearer token', `Headers { authorization => 'Bearer ${KEY}' }`],
    ['a basic token', `Authorization=Basic ${KEY}`],
  ])('masks a key in %s it was never told of', (_shape, line) => {
    const redacted = new Redactor().redact(line);
    expect(redacted).not.toContain(KEY);
    expect(redacted).toContain('[redacted]');
  });

  it('masks a key it holds wherever it stands, and leaves ordinary words alone', () => {
    const redactor = new Redactor();
    redactor.add(KEY);
    expect(redactor.redact(`the service refused ${KEY}.`)).toBe('the service refused [redacted].');
    expect(redactor.redact('the token was refused; authorization failed; 3 tokens left')).toBe(
      'the token was refused; authorization failed; 3 tokens left',
    );
  });
});
