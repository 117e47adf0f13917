import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appBuildIsStale, rendererBuildIsStale, webHostBuildIsStale } from '../../../main/web/renderer-build.ts';

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

function project(): string {
  root = mkdtempSync(join(tmpdir(), 'querydesk-build-'));
  for (const dir of ['renderer/src', 'main/contract', 'out/renderer']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'renderer/src/App.svelte'), '<p></p>');
  writeFileSync(join(root, 'main/contract/wire.ts'), '');
  return root;
}

function touch(path: string, secondsAgo: number): void {
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, time, time);
}

describe('whether the renderer needs a build', () => {
  it('is stale without a build, fresh after one, stale again when a renderer or contract file changes', () => {
    const root = project();
    expect(rendererBuildIsStale(root)).toBe(true);
    writeFileSync(join(root, 'out/renderer/index.html'), '');
    touch(join(root, 'renderer/src/App.svelte'), 60);
    touch(join(root, 'main/contract/wire.ts'), 60);
    expect(rendererBuildIsStale(root)).toBe(false);
    touch(join(root, 'main/contract/wire.ts'), 0);
    touch(join(root, 'out/renderer/index.html'), 30);
    expect(rendererBuildIsStale(root)).toBe(true);
    touch(join(root, 'out/renderer/index.html'), 0);
    touch(join(root, 'renderer/src/App.svelte'), -60);
    expect(rendererBuildIsStale(root)).toBe(true);
  });

  it('counts the whole app stale while main or preload is older than its sources, even with a fresh renderer', () => {
    const root = project();
    for (const dir of ['main/electron', 'preload', 'out/main', 'out/preload']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'main/electron/main.ts'), '');
    writeFileSync(join(root, 'preload/index.ts'), '');
    for (const file of ['renderer/src/App.svelte', 'main/contract/wire.ts', 'main/electron/main.ts', 'preload/index.ts'])
      touch(join(root, file), 60);
    writeFileSync(join(root, 'out/renderer/index.html'), '');
    expect(appBuildIsStale(root)).toBe(true);
    writeFileSync(join(root, 'out/main/index.js'), '');
    writeFileSync(join(root, 'out/preload/index.cjs'), '');
    expect(appBuildIsStale(root)).toBe(false);
    touch(join(root, 'main/electron/main.ts'), -60);
    expect(rendererBuildIsStale(root)).toBe(false);
    expect(appBuildIsStale(root)).toBe(true);
  });

  it('counts the browser host stale without its bundle, or while a main or renderer file is newer than it', () => {
    const root = project();
    mkdirSync(join(root, 'out/main'), { recursive: true });
    for (const file of ['renderer/src/App.svelte', 'main/contract/wire.ts']) touch(join(root, file), 60);
    writeFileSync(join(root, 'out/renderer/index.html'), '');
    expect(webHostBuildIsStale(root)).toBe(true);
    writeFileSync(join(root, 'out/main/web-host.js'), '');
    expect(webHostBuildIsStale(root)).toBe(false);
    touch(join(root, 'main/contract/wire.ts'), -60);
    expect(webHostBuildIsStale(root)).toBe(true);
    touch(join(root, 'main/contract/wire.ts'), 60);
    touch(join(root, 'renderer/src/App.svelte'), -60);
    expect(webHostBuildIsStale(root)).toBe(true);
  });
});
