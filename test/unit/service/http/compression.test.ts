import { describe, expect, it } from 'vitest';
import { chooseEncoding, compressesFor } from '../../../../main/service/http/compression.ts';

describe('the encoding of an answer', () => {
  it('takes the most welcome one the client names, by its q-value', () => {
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br')).toBe('br');
    expect(chooseEncoding('gzip;q=0.5, br;q=0.8')).toBe('br');
    expect(chooseEncoding('gzip; q=0.5 , zstd;q=0.2')).toBe('gzip');
  });

  it('prefers zstd, then gzip, then br when the client welcomes them alike', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('zstd');
    expect(chooseEncoding('br, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('zstd');
    expect(chooseEncoding('*;q=0.1, br')).toBe('br');
  });

  it('sends as is what the client does not ask to be compressed, or refuses', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding('gzip;q=0')).toBeNull();
    expect(chooseEncoding('*;q=0')).toBeNull();
    expect(chooseEncoding('gzip;q=abc')).toBeNull();
    expect(chooseEncoding('zstd;q=0, *')).toBe('gzip');
  });
});

describe('whom answers are compressed for', () => {
  it('by default, clients on another machine only', () => {
    expect(compressesFor('auto', '127.0.0.1')).toBe(false);
    expect(compressesFor('auto', '127.0.0.53')).toBe(false);
    expect(compressesFor('auto', '::1')).toBe(false);
    expect(compressesFor('auto', '::ffff:127.0.0.1')).toBe(false);
    expect(compressesFor('auto', '192.168.1.20')).toBe(true);
    expect(compressesFor('auto', '::ffff:10.0.0.7')).toBe(true);
  });

  it('everyone, or no one, when told', () => {
    expect(compressesFor('always', '127.0.0.1')).toBe(true);
    expect(compressesFor('never', '192.168.1.20')).toBe(false);
  });
});
