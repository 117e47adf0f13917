import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { protocol } from 'electron';
import { APP_HOST, APP_SCHEME } from './origin.ts';

// The renderer loads from app://querydesk/ rather than file://, so it gets a real origin
// (for the sender check and the CSP's 'self') and file:// keeps no special powers over it.

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

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
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
  '.txt': 'text/plain; charset=utf-8',
};

/** Must run before the app is ready: Chromium fixes scheme privileges at startup. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppRequestHandler(rendererDir));
}

/** Serves files under `rendererDir` only; anything that resolves outside it is refused. */
export function createAppRequestHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = resolve(rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return plain(404, 'Not found');
    const file = resolveInside(root, url.pathname);
    if (file === null) return plain(403, 'Forbidden');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return plain(404, 'Not found');
    }
    const headers = securityHeaders(MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}

function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // Encoded separators and NULs have no business in an asset path; refusing them up front
  // keeps the containment check below the only rule that matters.
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = resolve(root, relative);
  return file.startsWith(root + sep) ? file : null;
}

function securityHeaders(contentType: string): Headers {
  return new Headers({
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: securityHeaders('text/plain; charset=utf-8') });
}
