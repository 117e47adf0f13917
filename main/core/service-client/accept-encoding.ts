import zlib from 'node:zlib';

// Node's own fetch asks for gzip and deflate only, though from undici 7.10 (Node 24) it decodes
// zstd too when zlib has it. zstd is what Chromium (so the desktop host's net.fetch) asks for,
// and for a result's CSV the service's fastest zstd is smaller than its fastest gzip and quicker
// to make and to read (bench/RESULTS.md). Other fetches (Chromium's, a proxy's) keep their own
// header.

const ZSTD_SINCE = [7, 10];

/** The Accept-Encoding to send with Node's own fetch (undici of that version), or null to leave its default. */
export function nodeFetchAcceptEncoding(undiciVersion: string | undefined): string | null {
  if (typeof zlib.zstdDecompress !== 'function' || undiciVersion === undefined) return null;
  const [major = 0, minor = 0] = undiciVersion.split('.').map(Number);
  const decodesZstd = major > ZSTD_SINCE[0]! || (major === ZSTD_SINCE[0] && minor >= ZSTD_SINCE[1]!);
  return decodesZstd ? 'zstd, gzip, deflate, br' : null;
}
