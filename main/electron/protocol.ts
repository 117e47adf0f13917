import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { protocol } from 'electron';
import { CONTENT_SECURITY_POLICY, contentTypeOf, resolveRendererFile } from '../core/hosting/renderer-files.ts';
import { APP_HOST, APP_SCHEME } from './origin.ts';

// The renderer loads from app://querydesk/ rather than file://, so it gets a real origin
// (for the sender check and the CSP's 'self') and file:// keeps no special powers over it.

/** Must run before the app is ready: Chromium fixes scheme privileges at startup. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
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
    const file = resolveRendererFile(root, url.pathname);
    if (file === null) return plain(403, 'Forbidden');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return plain(404, 'Not found');
    }
    const headers = securityHeaders(contentTypeOf(file));
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
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
