import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractFile, listPackage, statFile } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';

// What a packed app folder must be: its app.asar holds the built app and the production
// dependencies only (no dev tools, no tests, no source maps of ours), native modules sit unpacked
// beside it, and the Electron binary carries the fuses electron-builder.yml asks for.

export interface PackageFacts {
  problems: string[];
  files: number;
  packages: string[];
  unpackedNatives: string[];
}

const TEST_PATH = /(^|\/)(test|tests|__tests__|e2e)\/|\.(test|spec)\.[cm]?[jt]s$/;
/** A private key, or a long literal assigned to a key-like name, in a map's embedded sources (quotes JSON-escaped or not). */
const SECRET_IN_MAP =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----|(?:api[_-]?key|secret|password|token)\\?["']?\s*[:=]\s*\\?["'][A-Za-z0-9_\-]{16,}\\?["']/i;

const FUSE_NAMES: Record<string, FuseV1Options> = {
  runAsNode: FuseV1Options.RunAsNode,
  enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
  grantFileProtocolExtraPrivileges: FuseV1Options.GrantFileProtocolExtraPrivileges,
};

/** The packages `npm ci --omit=dev` would install, from the lockfile. */
export function productionPackages(projectRoot: string): Set<string> {
  const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean }>;
  };
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev) continue;
    names.add(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return names;
}

/** `electronFuses:` of electron-builder.yml, as fuse number to wanted state. */
export function configuredFuses(projectRoot: string): Map<FuseV1Options, boolean> {
  const yml = readFileSync(join(projectRoot, 'electron-builder.yml'), 'utf8');
  const block = /^electronFuses:\n((?:[ \t]+.*\n)+)/m.exec(yml)?.[1] ?? '';
  const fuses = new Map<FuseV1Options, boolean>();
  for (const [, name = '', value] of block.matchAll(/^\s+(\w+):\s*(true|false)\s*$/gm)) {
    const fuse = FUSE_NAMES[name];
    if (fuse === undefined) throw new Error(`electron-builder.yml names an unknown fuse: ${name}`);
    fuses.set(fuse, value === 'true');
  }
  return fuses;
}

export async function checkPackage(appDir: string, executable: string, projectRoot: string): Promise<PackageFacts> {
  const problems: string[] = [];
  const asar = join(appDir, 'resources', 'app.asar');
  if (!existsSync(asar)) return { problems: [`no app.asar in ${appDir}/resources`], files: 0, packages: [], unpackedNatives: [] };
  const entries = listPackage(asar, { isPack: false }).map((entry) => entry.replace(/\\/g, '/').replace(/^\//, ''));
  const files = entries.filter((entry) => !statFile(asar, entry, false).hasOwnProperty('files'));

  for (const entry of entries) {
    const top = entry.split('/')[0] ?? '';
    if (!['out', 'node_modules', 'package.json'].includes(top)) problems.push(`unexpected top-level entry in app.asar: ${entry}`);
  }
  for (const needed of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) {
    if (!entries.includes(needed)) problems.push(`app.asar lacks ${needed}`);
  }

  const allowed = productionPackages(projectRoot);
  const packages = new Set<string>();
  for (const entry of entries) {
    const match = /^(?:.*\/)?node_modules\/(@[^/]+\/[^/]+|[^@/][^/]*)$/.exec(entry);
    if (match?.[1] !== undefined) packages.add(match[1]);
  }
  for (const name of packages) if (!allowed.has(name)) problems.push(`app.asar holds ${name}, which is not a production dependency`);
  const declared = Object.keys(
    (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
  );
  for (const name of declared) if (!packages.has(name)) problems.push(`app.asar lacks the dependency ${name}`);

  const natives = files.filter((entry) => entry.endsWith('.node'));
  if (natives.length === 0) problems.push('no native module found: DuckDB and the keychain binding should be there');
  for (const native of natives) {
    const stat = statFile(asar, native, false) as { unpacked?: boolean };
    if (!stat.unpacked) problems.push(`${native} is inside app.asar; the OS loader cannot read it there`);
    else if (!existsSync(join(appDir, 'resources', 'app.asar.unpacked', native)))
      problems.push(`${native} is marked unpacked but missing from app.asar.unpacked`);
  }

  for (const file of files) {
    if (TEST_PATH.test(file)) problems.push(`a test file is packed: ${file}`);
    if (!file.endsWith('.map')) continue;
    if (file.startsWith('out/')) {
      problems.push(`a source map of the app is packed: ${file}`);
      continue;
    }
    const stat = statFile(asar, file, false) as { unpacked?: boolean };
    const text = stat.unpacked
      ? readFileSync(join(appDir, 'resources', 'app.asar.unpacked', file), 'utf8')
      : extractFile(asar, file).toString('utf8');
    if (SECRET_IN_MAP.test(text)) problems.push(`a source map carries what looks like a secret: ${file}`);
  }

  const wire = (await getCurrentFuseWire(executable)) as Record<number, number>;
  for (const [fuse, wanted] of configuredFuses(projectRoot)) {
    const state = wire[fuse];
    const actual = state === 0x31 ? true : state === 0x30 ? false : null;
    if (actual !== wanted)
      problems.push(
        `fuse ${FuseV1Options[fuse]} is ${actual === null ? 'missing' : actual ? 'on' : 'off'} in ${executable}, electron-builder.yml wants it ${wanted ? 'on' : 'off'}`,
      );
  }

  return { problems, files: files.length, packages: [...packages].sort(), unpackedNatives: natives };
}
