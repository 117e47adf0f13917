import { describe, expect, it } from 'vitest';
import { nodeFetchAcceptEncoding } from '../../../../main/core/service-client/accept-encoding.ts';

// zstd is asked for only from a Node fetch that decodes it (undici 7.10 on, with zlib's zstd).

describe("the Accept-Encoding of Node's own fetch", () => {
  it('asks for zstd first from undici 7.10 on', () => {
    expect(nodeFetchAcceptEncoding('7.10.0')).toBe('zstd, gzip, deflate, br');
    expect(nodeFetchAcceptEncoding('8.0.1')).toBe('zstd, gzip, deflate, br');
  });

  it("keeps fetch's own before it, or when the version is unknown", () => {
    expect(nodeFetchAcceptEncoding('7.9.3')).toBeNull();
    expect(nodeFetchAcceptEncoding('6.21.0')).toBeNull();
    expect(nodeFetchAcceptEncoding(undefined)).toBeNull();
  });
});
