import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../main/core/hosting/renderer-files.ts';
import { KEYCHAIN_SERVICE } from '../../../main/core/index.ts';
import { KeyVault } from '../../../main/core/secrets/key-vault.ts';
import { keptLocalKey } from '../../../main/core/secrets/local-key.ts';
import { osKeychain } from '../../../main/core/secrets/os-keychain.ts';
import { startService } from '../../../main/service/index.ts';
import { appBuildIsStale, buildApp } from '../../../main/web/renderer-build.ts';

// The app as built (out/main, out/preload, out/renderer), booted in a Node process of its own with
// a stand-in `electron` (see stand-in/). That process reports what it saw; this file judges it.

const projectRoot = resolve(import.meta.dirname, '../../..');
const scenario = join(import.meta.dirname, 'stand-in/boot-built-app.ts');

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
interface Report {
  schemesRegisteredBeforeReady: boolean | null;
  privilegedSchemes: Array<{ scheme: string; privileges: Record<string, boolean> }>;
  permissionHandlersSet: number;
  windowCount: number;
  windowOptions: { webPreferences: Record<string, unknown> };
  windowOpenAction: { action: string } | null;
  loadedUrl: string | null;
  served: { root: Answer | null; entry: Answer | null; escape: Answer | null; otherHost: Answer | null };
  preload: { required: string[]; exposedKeys: string[]; bridgeKeys: string[]; bridgeFrozen: boolean };
  settings: { ok: boolean; data?: { settings: Record<string, unknown>; about: Record<string, string> } };
  settingsChange: { ok: boolean; data?: { settings: Record<string, unknown> } };
  themeAfterChange: string;
  proxyConfigs: unknown[];
  protocolClients: string[];
  openLogs: { ok: boolean };
  openedPaths: string[];
  sent: unknown[][];
  refreshed: { ok: boolean; data?: { status: string } };
  queries: { ok: boolean; data?: { queries: Array<{ id: number; name: string }> } };
  unknownChannel: { ok: boolean; error?: { code: string } };
  unknownChannelReachedMain: boolean;
  invalidPayload: { ok: boolean; error?: { code: string; message: string } };
  unknownEventError: string | null;
  writeAsItClosed: { ok: boolean } | null;
  ipcHandlersAfterQuit: string[];
  quitEmitted: boolean;
  exitCode: number | null;
  errors: string[];
  serviceAfterQuit: string;
}

let userData: string;
let report: Report;
let exitCode: number | null;

function bootBuiltApp(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [scenario, projectRoot, userData, 'querydesk://query/2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The process must end by itself once the app has quit: a server, timer or database left open would keep it alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed(new Error(`the booted app did not exit after quitting\n${stderr}`));
    }, 45_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

function walFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.wal'));
}

beforeAll(async () => {
  if (appBuildIsStale(projectRoot) && !buildApp(projectRoot)) throw new Error('npm run build failed');
  userData = mkdtempSync(join(tmpdir(), 'querydesk-built-app-'));
  const run = await bootBuiltApp();
  exitCode = run.code;
  const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !lastLine.startsWith('{')) throw new Error(`the booted app failed (exit ${run.code}):\n${run.stderr}`);
  report = JSON.parse(lastLine) as Report;
}, 120_000);

afterAll(() => {
  if (userData) rmSync(userData, { recursive: true, force: true });
});

describe('the built app, booted with a stand-in electron', () => {
  it('registers the app scheme before ready and opens one sandboxed, isolated window on the app origin', () => {
    expect(report.schemesRegisteredBeforeReady).toBe(true);
    expect(report.privilegedSchemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(report.permissionHandlersSet).toBe(2);
    expect(report.windowCount).toBe(1);
    expect(report.windowOptions.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      preload: join(projectRoot, 'out/preload/index.cjs'),
    });
    expect(report.loadedUrl).toBe('app://querydesk/index.html');
    expect(report.windowOpenAction).toEqual({ action: 'deny' });
  });

  it('answers app://querydesk/ with the built index.html and the CSP, and nothing outside the build', () => {
    const built = readFileSync(join(projectRoot, 'out/renderer/index.html'), 'utf8');
    for (const answer of [report.served.root, report.served.entry]) {
      expect(answer?.status).toBe(200);
      expect(answer?.body).toBe(built);
      expect(answer?.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(answer?.headers['content-type']).toMatch(/^text\/html/);
    }
    expect(report.served.escape?.status).toBe(403);
    expect(report.served.otherHost?.status).toBe(404);
  });

  it('runs the built preload in a sandbox: it needs only electron and exposes a frozen invoke/on bridge', () => {
    expect(report.preload).toEqual({
      required: ['electron'],
      exposedKeys: ['querydesk'],
      bridgeKeys: ['invoke', 'on', 'onStopping'],
      bridgeFrozen: true,
    });
    expect(report.unknownChannel).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(report.unknownChannelReachedMain).toBe(false);
    expect(report.unknownEventError).toMatch(/Unknown event "bogus:event"/);
  });

  it('answers invokes through the registered handler from the real embedded service', async () => {
    expect(report.settings).toMatchObject({ ok: true, data: { about: { host: 'electron' } } });
    expect(report.invalidPayload).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(report.invalidPayload.error?.message).toContain('limit');
    expect(report.refreshed).toMatchObject({ ok: true, data: { status: 'online' } });
    expect(report.queries.ok).toBe(true);
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    const listed = report.queries.data?.queries.map((query) => ({ id: query.id, name: query.name })).sort(byId) ?? [];
    expect(listed.length).toBeGreaterThan(0);

    // The same data folder, opened again by the service alone with the Local key the app kept, holds exactly those queries.
    const kept = await keptLocalKey(new KeyVault(osKeychain(KEYCHAIN_SERVICE)));
    const service = await startService({ dataDir: join(userData, 'service'), port: 0, demoApiKey: kept ?? undefined });
    try {
      // and the day's log says the app started and stopped, without that account's key
      const log = readdirSync(join(userData, 'logs'))
        .map((name) => readFileSync(join(userData, 'logs', name), 'utf8'))
        .join('');
      expect(log).toMatch(/INFO Querydesk 0\.0\.0-stand-in starting on /);
      expect(log).toMatch(/INFO Querydesk stopped\n$/);
      expect(log).not.toContain(service.demoApiKey);
      // the service ran in its thread, from the file built beside index.js
      expect(log).not.toMatch(/embedded service runs in the main thread/);
      const response = await fetch(`${service.baseUrl}/api/v1/queries?limit=1000`, {
        headers: { 'X-DUNE-API-KEY': service.demoApiKey ?? '' },
      });
      const body = (await response.json()) as { queries: Array<{ id: number; name: string }> };
      expect(listed).toEqual(body.queries.map((query) => ({ id: query.id, name: query.name })).sort(byId));
    } finally {
      await service.close();
    }
  });

  it('keeps its settings with electron-store and applies theme and proxy to Chromium', () => {
    expect(report.settings.data?.settings).toMatchObject({ theme: 'system', proxy: '', notifyOnFinish: true });
    expect(report.settings.data?.about).toMatchObject({
      host: 'electron',
      dataDir: userData,
      logsDir: join(userData, 'logs'),
      settingsFile: join(userData, 'settings.json'),
    });
    expect(report.settingsChange.data?.settings).toMatchObject({ theme: 'dark', proxy: 'http://127.0.0.1:3128' });
    expect(report.themeAfterChange).toBe('dark');
    expect(report.proxyConfigs).toEqual([{ mode: 'system' }, { mode: 'fixed_servers', proxyRules: 'http://127.0.0.1:3128' }]);
    const stored = JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as { app: Record<string, unknown> };
    expect(stored.app).toMatchObject({ theme: 'dark', proxy: 'http://127.0.0.1:3128' });
    expect(report.openLogs).toEqual({ ok: true, data: {} });
    expect(report.openedPaths).toEqual([join(userData, 'logs')]);
  });

  it('registers as the querydesk:// handler and shows the query the launch link names', () => {
    expect(report.protocolClients).toEqual(['querydesk']);
    expect(report.sent).toContainEqual(['querydesk:event', 'query:open', { accountId: 'local', queryId: 2 }]);
  });

  it('quits cleanly: handler removed, service closed, databases checkpointed, process ends by itself', () => {
    expect(report.quitEmitted).toBe(true);
    expect(report.ipcHandlersAfterQuit).toEqual([]);
    expect(report.serviceAfterQuit).toBe('ECONNREFUSED');
    expect(report.exitCode).toBeNull();
    expect(report.errors).toEqual([]);
    expect(exitCode).toBe(0);
    // the window's place, kept for the display it was on as the app quit
    const stored = JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as { window: unknown };
    expect(stored.window).toEqual({
      byDisplay: { '0,0,1920x1080': { bounds: { x: 100, y: 80, width: 1280, height: 820 }, maximized: false } },
      last: '0,0,1920x1080',
    });
    // DuckDB folds its write-ahead log into the file when closed; a file left open keeps it.
    expect(walFiles(userData)).toEqual([]);
  });

  it('holds the window’s close for what the page still held to write, and has it on disk after the quit', () => {
    expect(report.writeAsItClosed).toEqual({ ok: true, data: {} });
    const uiFiles = readdirSync(join(userData, 'core', 'workspaces'), { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('ui.json'),
    );
    expect(uiFiles).toHaveLength(1);
    const ui = JSON.parse(readFileSync(join(userData, 'core', 'workspaces', uiFiles[0]!), 'utf8')) as { values: Record<string, unknown> };
    expect(ui.values.layout).toEqual({ sidebarWidth: 321 });
  });
});
