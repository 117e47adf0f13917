import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({ registered: [] as unknown[], handled: new Map<string, unknown>() }));

vi.mock('electron', () => ({
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => fake.registered.push(...schemes),
    handle: (scheme: string, handler: unknown) => fake.handled.set(scheme, handler),
  },
}));

const { createAppRequestHandler, handleAppProtocol, registerAppScheme } = await import('../../../main/electron/protocol.ts');
const { CONTENT_SECURITY_POLICY } = await import('../../../main/core/hosting/renderer-files.ts');

const base = mkdtempSync(join(tmpdir(), 'querydesk-protocol-'));
const root = join(base, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Querydesk</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(root, 'assets', 'app.css'), 'body{}');
writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>');
writeFileSync(join(base, 'secret.txt'), 'outside the renderer');
mkdirSync(join(base, 'renderer-evil'));
writeFileSync(join(base, 'renderer-evil', 'x.js'), 'sibling folder');

afterAll(() => rmSync(base, { recursive: true, force: true }));

const handle = createAppRequestHandler(root);
const get = (path: string, init?: RequestInit) => handle(new Request(`app://querydesk${path}`, init));

describe('the app:// protocol', () => {
  it('registers app as a standard, secure scheme and handles it from the renderer folder', async () => {
    registerAppScheme();
    expect(fake.registered).toEqual([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    handleAppProtocol(root);
    const handler = fake.handled.get('app') as (request: Request) => Promise<Response>;
    expect((await handler(new Request('app://querydesk/index.html'))).status).toBe(200);
  });

  it('serves index.html for the root and by name, with the strict CSP', async () => {
    for (const path of ['/', '/index.html']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<title>Querydesk</title>');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('has a CSP that allows nothing from outside the app', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(directives).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it('answers with the right MIME types', async () => {
    expect((await get('/assets/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('/assets/logo.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('refuses every way out of the renderer folder', async () => {
    const attempts = [
      '/..%2Fsecret.txt',
      '/assets/..%2F..%2Fsecret.txt',
      '/..%5Csecret.txt',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/..%2Frenderer-evil%2Fx.js',
      '/index.html%00.js',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const response = await get(path);
      expect(response.status, path).toBe(403);
      expect(await response.text(), path).not.toContain('outside the renderer');
    }
    // Dot segments, plain or percent-encoded, are folded by the URL parser before the handler
    // sees them, so they land inside the root, where there is no such file.
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2E%2E/%2e%2e/secret.txt']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('outside the renderer');
    }
  });

  it('answers 404 for a missing file or another host, and 405 for anything but GET and HEAD', async () => {
    expect((await get('/nope.js')).status).toBe(404);
    expect((await handle(new Request('app://elsewhere/index.html'))).status).toBe(404);
    expect((await get('/index.html', { method: 'POST', body: 'x' })).status).toBe(405);
    const head = await get('/index.html', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
