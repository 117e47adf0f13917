import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 34's measure: no source file over 300 lines, so that each one can be read whole.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MAX_LINES = 300;
const FOLDERS = ['main', 'preload', 'renderer/src'];

/** Every .ts and .svelte file under `folder`, as paths from the root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|svelte)$/.test(path))
    .map((path) => relative(root, join(root, folder, path)).split('\\').join('/'));
}

/** Lines as `wc -l` counts them for a file that ends in a line break. */
function lineCount(path: string): number {
  const text = readFileSync(join(root, path), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const sizes = new Map(FOLDERS.flatMap(sourceFiles).map((path) => [path, lineCount(path)]));

describe('source file size', () => {
  it(`finds the source files`, () => {
    expect(sizes.size).toBeGreaterThan(100);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const over = [...sizes].filter(([, lines]) => lines > MAX_LINES).map(([path, lines]) => `${path} (${lines})`);
    expect(over).toEqual([]);
  });
});
