import { extname, resolve, sep } from 'node:path';

// What both hosts need to serve the built renderer: the one content security policy, the content
// types of its files, and the rule that maps a request path to a file without leaving the folder.

/** The page may load from and talk to its own origin only. AG Grid injects styles at runtime. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file a URL path names inside `root` (a folder path names its index.html), or null when the
 * path is malformed or would leave the root.
 */
export function resolveRendererFile(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // Encoded separators and NULs have no business in an asset path; refusing them up front keeps
  // the containment check the only rule that matters.
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const file = resolve(root, `.${relative.startsWith('/') ? '' : '/'}${relative}`);
  return file.startsWith(resolve(root) + sep) ? file : null;
}
