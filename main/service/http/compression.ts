import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { acceptedWeights } from './accept-list.ts';

// Result pages are JSON or CSV text, which shrinks five to ten times. Over a real link that is most
// of a download's time; to a client on this machine it is only work for both sides, so by default
// an answer to a loopback peer is sent as is.

export type Encoding = 'zstd' | 'br' | 'gzip';
/** `auto`: compressed for a client on another machine, when it asks; `always`: whenever it asks. */
export type CompressionMode = 'auto' | 'always' | 'never';
export const COMPRESSION_MODES: readonly CompressionMode[] = ['auto', 'always', 'never'];

/** Below this a body goes as is: the headers and the work would cost more than they save. */
export const MIN_COMPRESSED_BYTES = 1024;

// The fastest levels: a page is compressed while the client waits for it. zstd is in Node from 22.15.
const zstd = typeof zlib.zstdCompress === 'function' ? promisify(zlib.zstdCompress) : null;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSORS: Record<Encoding, ((body: Buffer) => Promise<Buffer>) | null> = {
  zstd: zstd && ((body) => zstd(body, { params: { [zlib.constants.ZSTD_c_compressionLevel]: 1 } })),
  br: (body) =>
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzip(body, { level: 1 }),
};

/** When two are as welcome to the client, the one that is quicker for the ratio it gives. */
const PREFERENCE: Encoding[] = ['zstd', 'gzip', 'br'];

/**
 * The encoding to answer in, from an Accept-Encoding header: the client's most welcome one that
 * this Node has (q=0 refuses one, `*` welcomes any not named), or null to send the body as is.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = acceptedWeights(acceptEncoding);
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of PREFERENCE) {
    if (!COMPRESSORS[encoding]) continue;
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Whether an answer to this peer is worth compressing at all, before looking at what it asks. */
export function compressesFor(mode: CompressionMode, remoteAddress: string | undefined): boolean {
  if (mode === 'never') return false;
  return mode === 'always' || !LOOPBACK.test(remoteAddress ?? '');
}

export function compress(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return COMPRESSORS[encoding]!(body);
}
