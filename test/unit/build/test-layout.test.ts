import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 34's measure: tests live in folders that mirror the source, so that the tests of a module
// are found by its path. `test/unit/core/cache/` tests `main/core/cache/`.

const root = resolve(import.meta.dirname, '../../..');

// Folders whose tests are about something that is not one source folder, each with its reason.
const NOT_SOURCE: Record<string, string> = {
  'official-client': "Dune's own TypeScript client, run against the embedded service",
  words: 'the proofreading of every message the app shows, whichever layer wrote it',
};

/** The source folder a test folder stands for, or null when there is none. */
function sourceFolderOf(testFolder: string, exists: (path: string) => boolean = (path) => existsSync(join(root, path))): string | null {
  const candidates =
    testFolder === 'renderer' || testFolder.startsWith('renderer/')
      ? [join('renderer/src', testFolder.slice('renderer'.length))]
      : [join('main', testFolder), testFolder];
  return candidates.find(exists) ?? null;
}

/** Folders holding test files; a folder of helpers only (a stand-in module, fixtures) is not one. */
function testFolders(kind: string): string[] {
  const top = join(root, 'test', kind);
  const folders = readdirSync(top, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => entry.parentPath.slice(top.length + 1))
    .filter((folder) => folder !== '');
  return [...new Set(folders)];
}

describe('test layout', () => {
  const folders = ['unit', 'integration'].flatMap((kind) => testFolders(kind).map((folder) => ({ kind, folder })));

  it('finds the test folders', () => {
    expect(folders.length).toBeGreaterThan(20);
  });

  it('puts every folder of tests where a source folder of the same path is', () => {
    const strays = folders
      .filter(({ folder }) => !(folder.split('/')[0]! in NOT_SOURCE))
      .filter(({ folder }) => sourceFolderOf(folder) === null)
      .map(({ kind, folder }) => `test/${kind}/${folder}`);
    expect(strays).toEqual([]);
  });

  it('keeps no test files beside folders of one source folder in the service', () => {
    const flat = readdirSync(join(root, 'test/integration/service')).filter((name) => name.endsWith('.test.ts'));
    // The service's command line and its probes test the whole service, not one of its folders.
    expect(flat.sort()).toEqual(['cli.test.ts', 'crash.test.ts', 'fuzz.test.ts']);
  });

  it('names a renderer test folder after renderer/src, and the others after main or the root', () => {
    const only =
      (...paths: string[]) =>
      (path: string) =>
        paths.includes(path);
    expect(sourceFolderOf('renderer/results/grid', only('renderer/src/results/grid'))).toBe('renderer/src/results/grid');
    expect(sourceFolderOf('core/cache', only('main/core/cache'))).toBe('main/core/cache');
    expect(sourceFolderOf('build', only('build'))).toBe('build');
    expect(sourceFolderOf('cache', only('main/core/cache'))).toBeNull();
  });
});
