import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// `npm run web` must serve what the sources say: rebuild when the built renderer is missing or
// older than any file it is built from. The built-app smoke test asks the same of all three parts.

const RENDERER = { output: 'out/renderer/index.html', sources: ['renderer', 'main/contract'] };
const WEB_HOST = [RENDERER, { output: 'out/main/web-host.js', sources: ['main'] }];
const WHOLE_APP = [
  RENDERER,
  { output: 'out/main/index.js', sources: ['main'] },
  { output: 'out/preload/index.cjs', sources: ['preload', 'main/contract'] },
];
const SKIPPED = new Set(['node_modules', '.svelte-kit']);

export function rendererBuildIsStale(projectRoot: string): boolean {
  return isStale(projectRoot, RENDERER);
}

/** The browser host's bundle (see build/web-host.ts) or the renderer it serves is missing or older than its sources. */
export function webHostBuildIsStale(projectRoot: string): boolean {
  return WEB_HOST.some((part) => isStale(projectRoot, part));
}

/** Main, preload or renderer is missing or older than its sources. */
export function appBuildIsStale(projectRoot: string): boolean {
  return WHOLE_APP.some((part) => isStale(projectRoot, part));
}

function isStale(projectRoot: string, part: { output: string; sources: string[] }): boolean {
  const builtAt = modifiedAt(join(projectRoot, part.output));
  if (builtAt === null) return true;
  return part.sources.some((dir) => newestIn(join(projectRoot, dir)) > builtAt);
}

/** Runs `npm run build` with its output on stderr, so stdout keeps only the URL line. */
export function buildApp(projectRoot: string): boolean {
  const run = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: ['ignore', 2, 2] });
  return run.status === 0;
}

function modifiedAt(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function newestIn(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : (modifiedAt(path) ?? 0));
  }
  return newest;
}
