import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rendererBuildIsStale } from '../../../main/web/renderer-build.ts';

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
});
