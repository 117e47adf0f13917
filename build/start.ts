import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { buildApp, webHostBuildIsStale } from '../main/web/renderer-build.ts';
import { hostProcessEnv, WEB_HOST_ENTRY, webHostCommand } from './web-host.ts';

// `npm start`: the desktop app where Electron's binary is installed, the browser host elsewhere;
// `npm run web` (`--browser-host` first): the browser host, built first when its build is stale;
// `npm run service` (`--service` first): the embedded service alone, in a process started as the host's.
// The `electron` package is never required from Node here: doing so starts its binary download.

const PROJECT_DIR = join(import.meta.dirname, '..');
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The Electron executable the installed `electron` package would run, or null when it is not
 * on disk. Mirrors the package's own lookup: `path.txt` names the binary inside `dist/`, or
 * inside ELECTRON_OVERRIDE_DIST_PATH when that is set.
 */
export function findElectronBinary(electronPackageDir: string, overrideDistPath?: string): string | null {
  const pathFile = join(electronPackageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  let binary: string;
  if (overrideDistPath) binary = join(overrideDistPath, relative || 'electron');
  else if (relative) binary = join(electronPackageDir, 'dist', relative);
  else return null;
  try {
    return statSync(binary).isFile() ? binary : null;
  } catch {
    return null;
  }
}

function electronPackageDir(): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const child = spawn(command, args, { cwd: PROJECT_DIR, stdio: 'inherit', env });
  forwardSignals(child);
  child.on('error', (error) => {
    console.error(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1));
  });
}

function forwardSignals(child: ChildProcess): void {
  for (const signal of FORWARDED_SIGNALS) {
    process.on(signal, () => child.kill(signal));
  }
}

/** The built browser host (build/web-host.ts), built first unless it is fresh, or `--no-build` says so and it is there. */
function startWebHost(args: string[]): void {
  const noBuild = args.includes('--no-build') && existsSync(WEB_HOST_ENTRY);
  if (!noBuild && webHostBuildIsStale(PROJECT_DIR)) {
    console.error('Querydesk: building the app first (out/ is missing or older than its sources)…');
    if (!buildApp(PROJECT_DIR)) process.exit(1);
  }
  const command = webHostCommand(args);
  run(process.execPath, command.args, command.env);
}

function main(args: string[]): void {
  if (args[0] === '--browser-host') {
    startWebHost(args.slice(1));
    return;
  }
  if (args[0] === '--service') {
    run(process.execPath, [join(PROJECT_DIR, 'main/service/cli.ts'), ...args.slice(1)], hostProcessEnv());
    return;
  }
  const packageDir = electronPackageDir();
  const binary = packageDir === null ? null : findElectronBinary(packageDir, process.env.ELECTRON_OVERRIDE_DIST_PATH);
  if (binary === null) {
    console.log('The Electron binary is not available on this machine; starting the browser host instead.');
    startWebHost(args);
    return;
  }
  const build = spawnSync('npm', ['run', 'build'], { cwd: PROJECT_DIR, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // An inherited ELECTRON_RUN_AS_NODE would start the binary as plain Node instead of the app.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  run(binary, [PROJECT_DIR, ...args], env);
}

if (import.meta.main) main(process.argv.slice(2));
