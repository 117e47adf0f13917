import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve } from 'node:path';
import { contentTypeOf, resolveRendererFile } from '../core/hosting/renderer-files.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

// Serves the built renderer. A path without a file extension that names no file gets
// index.html, so a reload on an app route still opens the app.

export function createStaticHandler(rendererDir: string): (request: IncomingMessage, url: URL, response: ServerResponse) => Promise<void> {
  const root = resolve(rendererDir);

  return async (request, url, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return send(response, request, 405, 'text/plain; charset=utf-8', 'Method not allowed', { Allow: 'GET, HEAD' });
    }
    const path = filePathFor(root, url.pathname);
    if (path === null) return send(response, request, 400, 'text/plain; charset=utf-8', 'Bad path');
    const file = (await readFileIfAny(path)) ?? (extname(path) === '' ? await readFileIfAny(resolve(root, 'index.html')) : null);
    if (file === null) return send(response, request, 404, 'text/plain; charset=utf-8', 'Not found');
    return send(response, request, 200, contentTypeOf(file.path), file.body);
  };
}

/** The file a URL's path names inside the root, or null when it would leave the root or is malformed. */
function filePathFor(root: string, pathname: string): string | null {
  try {
    return resolveRendererFile(root, pathname);
  } catch {
    return null;
  }
}

async function readFileIfAny(path: string): Promise<{ path: string; body: Buffer } | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
    return { path, body: await readFile(path) };
  } catch {
    return null;
  }
}

function send(
  response: ServerResponse,
  request: IncomingMessage,
  status: number,
  contentType: string,
  body: string | Buffer,
  extraHeaders: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    ...extraHeaders,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    // The renderer is rebuilt in place during development: always revalidate.
    'Cache-Control': 'no-cache',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
