import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The app's source files, as the size checks of issue 34 read them.

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FOLDERS = ['main', 'preload', 'renderer/src'];

/** Every .ts and .svelte file under `folder`, as paths from the root. */
function sourceFilesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|svelte)$/.test(path))
    .map((path) =>
      relative(root, join(root, folder, path))
        .split('\\')
        .join('/'),
    );
}

/** Every .ts and .svelte file of main, preload and renderer/src, as paths from the root. */
export function sourceFiles(): string[] {
  return FOLDERS.flatMap(sourceFilesUnder);
}
