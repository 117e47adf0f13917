import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

// The app's own source files (main, renderer, preload) with their text, for the tests that grep
// them for a shared rule written again outside its module.

const SOURCE = /\.(ts|mts|cts|js|mjs|svelte)$/;
const SKIPPED = new Set(['node_modules', 'out', 'dist', 'public']);

export interface SourceFile {
  /** From the project's root, with `/` between folders. */
  path: string;
  text: string;
}

export function projectSources(root: string): SourceFile[] {
  const under = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : under(path);
      return SOURCE.test(entry.name) ? [path.split(sep).join('/')] : [];
    });
  return ['main', 'renderer', 'preload'].flatMap(under).map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}
