import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, sourceFiles } from './source-files.ts';

// Issue 34's measure: no source file over 300 lines, so that each one can be read whole.

const MAX_LINES = 300;

/** Lines as `wc -l` counts them for a file that ends in a line break. */
function lineCount(path: string): number {
  const text = readFileSync(join(root, path), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const sizes = new Map(sourceFiles().map((path) => [path, lineCount(path)]));

describe('source file size', () => {
  it(`finds the source files`, () => {
    expect(sizes.size).toBeGreaterThan(100);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const over = [...sizes].filter(([, lines]) => lines > MAX_LINES).map(([path, lines]) => `${path} (${lines})`);
    expect(over).toEqual([]);
  });
});
