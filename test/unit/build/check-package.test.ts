import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createPackageWithOptions } from '@electron/asar';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPackage, configuredFuses } from '../../../build/check-package.ts';
import { writeStandInElectron } from '../../../build/stand-in-electron.ts';

// The package check on app folders made here, one as it must be and one with everything wrong;
// `npm run pack` runs the same check on what electron-builder packs.

const projectRoot = resolve(import.meta.dirname, '../../..');
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function appFolder(files: Record<string, string>, unpack: string): Promise<{ appDir: string; executable: string }> {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-package-'));
  const source = join(dir, 'source');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(source, path)), { recursive: true });
    writeFileSync(join(source, path), text);
  }
  const appDir = join(dir, 'app');
  mkdirSync(join(appDir, 'resources'), { recursive: true });
  await createPackageWithOptions(source, join(appDir, 'resources', 'app.asar'), { unpack });
  return { appDir, executable: writeStandInElectron(appDir) };
}

const BUILT = { 'out/main/index.js': '', 'out/preload/index.cjs': '', 'out/renderer/index.html': '', 'package.json': '{}' };
const DEPENDENCIES = Object.keys(
  (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
);
const withDependencies = Object.fromEntries(DEPENDENCIES.map((name) => [`node_modules/${name}/package.json`, '{}']));

describe('the package check', () => {
  it('passes an app folder with the build, production dependencies, unpacked natives and the configured fuses', async () => {
    const { appDir, executable } = await appFolder(
      { ...BUILT, ...withDependencies, 'node_modules/@duckdb/node-bindings-linux-x64/duckdb.node': 'native' },
      '*.node',
    );
    const wanted = configuredFuses(projectRoot);
    await flipFuses(executable, { version: FuseVersion.V1, ...Object.fromEntries(wanted) });
    const facts = await checkPackage(appDir, executable, projectRoot);
    expect(facts.problems).toEqual([]);
    expect(facts.unpackedNatives).toEqual(['node_modules/@duckdb/node-bindings-linux-x64/duckdb.node']);
  });

  it('names every way a package can be wrong', async () => {
    const { appDir, executable } = await appFolder(
      {
        ...BUILT,
        ...withDependencies,
        'out/main/index.js.map': '{"sourcesContent":[]}',
        'node_modules/vitest/package.json': '{}',
        'node_modules/ws/tests/websocket.test.js': '',
        'node_modules/undici/index.js.map': '{"sourcesContent":["const apiKey = \\"dune_live_abcdefghijklmnop\\""]}',
        'node_modules/@duckdb/node-bindings-linux-x64/duckdb.node': 'native',
        'src/App.svelte': '',
      },
      'nothing-unpacked',
    );
    const { problems } = await checkPackage(appDir, executable, projectRoot);
    expect(problems).toEqual(
      expect.arrayContaining([
        'unexpected top-level entry in app.asar: src',
        'app.asar holds vitest, which is not a production dependency',
        'a test file is packed: node_modules/ws/tests/websocket.test.js',
        'a source map of the app is packed: out/main/index.js.map',
        'a source map carries what looks like a secret: node_modules/undici/index.js.map',
        'node_modules/@duckdb/node-bindings-linux-x64/duckdb.node is inside app.asar; the OS loader cannot read it there',
        `fuse RunAsNode is on in ${executable}, electron-builder.yml wants it off`,
        `fuse OnlyLoadAppFromAsar is off in ${executable}, electron-builder.yml wants it on`,
      ]),
    );
  });

  it('reads the fuses electron-builder.yml asks for', () => {
    const fuses = configuredFuses(projectRoot);
    expect(fuses.get(FuseV1Options.RunAsNode)).toBe(false);
    expect(fuses.get(FuseV1Options.OnlyLoadAppFromAsar)).toBe(true);
    expect(fuses.get(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(true);
    expect(fuses.size).toBe(7);
  });
});
