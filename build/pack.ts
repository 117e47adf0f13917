import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { appBuildIsStale, buildApp } from '../main/web/renderer-build.ts';
import { checkPackage } from './check-package.ts';
import { writeStandInElectron } from './stand-in-electron.ts';

// `npm run pack`: the Linux app folder (dist/linux-unpacked) as electron-builder makes it, with a
// stand-in for the Electron binary these machines cannot download, then the package check. It
// proves the `files` globs, the pruned production dependencies, the unpacked natives and the fuses;
// installers (AppImage, deb, rpm, dmg, nsis) need tools from the network and are built in CI.

const projectRoot = resolve(import.meta.dirname, '..');

if (appBuildIsStale(projectRoot) && !buildApp(projectRoot)) {
  console.error('pack: the build failed');
  process.exit(1);
}

const electronDist = mkdtempSync(join(tmpdir(), 'querydesk-electron-dist-'));
try {
  writeStandInElectron(electronDist);
  const builder = spawnSync('electron-builder', ['--linux', 'dir', '--publish', 'never', `-c.electronDist=${electronDist}`], {
    cwd: projectRoot,
    stdio: 'inherit',
  });
  if (builder.status !== 0) process.exit(builder.status ?? 1);
} finally {
  rmSync(electronDist, { recursive: true, force: true });
}

const appDir = join(projectRoot, 'dist', 'linux-unpacked');
const facts = await checkPackage(appDir, join(appDir, 'querydesk'), projectRoot);
console.log(
  `pack: ${facts.files} files in app.asar; packages: ${facts.packages.join(', ')}; unpacked natives: ${facts.unpackedNatives.length}`,
);
if (facts.problems.length > 0) {
  console.error(`pack: the package is not as it must be:\n- ${facts.problems.join('\n- ')}`);
  process.exit(1);
}
console.log('pack: app.asar and fuses checked.');
